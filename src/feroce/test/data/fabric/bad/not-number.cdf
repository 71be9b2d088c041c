# expect: 3: probability x is not a decimal number
0 0
100 x
