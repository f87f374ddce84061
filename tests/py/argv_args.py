# args: one two 3
import sys
print(sys.argv[1:], len(sys.argv))
print(int(sys.argv[3]) * 2)
