# expect: 3: probability 0x1p-1 is not a decimal number
0 0
100 0x1p-1
200 1
