# expect: 4: the CDF ends at 0.9: expected 1 (or 100, in percent)
0 0
100 0.5
200 0.9
