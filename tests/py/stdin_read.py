# stdin: first line\nsecond line\n3 4 5\n
import sys
line = input()
print("got:", line)
print("second:", sys.stdin.readline().strip())
nums = list(map(int, input().split()))
print(sum(nums))
try:
    input()
except EOFError as e:
    print("EOFError:", e)
