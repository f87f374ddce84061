# Finalizers at exit leave the exit status alone: sys.exit(3) still exits
# with 3 after globals' __del__ ran, and an exception in a __del__ at exit
# is reported as "Exception ignored in" (the last stderr line is its
# message).
import sys


class D:
    def __init__(self, name):
        self.name = name

    def __del__(self):
        print("del", self.name)


class Bad:
    def __del__(self):
        raise ValueError("from __del__ at exit")


x = D("x")
y = D("y")
y.other = x
table = {"key": D("in-dict")}
bad = Bad()
print("exiting")
sys.exit(3)
