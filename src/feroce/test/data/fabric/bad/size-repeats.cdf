# expect: 4: size 100 is not above the size of line 3
0 0
100 0.5
100 1
