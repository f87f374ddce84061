import sys
sys.exit("fatal: something went wrong")
