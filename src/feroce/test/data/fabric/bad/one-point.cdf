# expect: 2: has 1 point
100 0
