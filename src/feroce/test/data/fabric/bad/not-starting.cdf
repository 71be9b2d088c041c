# expect: 2: the CDF starts at 0.1
100 0.1
200 1
