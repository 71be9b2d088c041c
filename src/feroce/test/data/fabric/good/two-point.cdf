# sizes uniform between 1000 and 3000 bytes: mean 2000
1000 0
3000 1
