# expect: 5: probability 0.3 is not above the probability of line 4: the CDF is not increasing
0 0
100 0.2
200 0.5
300 0.3
400 1
