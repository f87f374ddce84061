import random
random.seed(3)
rolls = list(iter(lambda: random.randint(1, 6), 6))
print(rolls)
it = iter([1, 2, 3])
print(next(it), list(it), next(it, "empty"))
try:
    next(iter([]))
except StopIteration:
    print("StopIteration")
class CountTo:
    def __init__(self, n): self.i, self.n = 0, n
    def __iter__(self): return self
    def __next__(self):
        self.i += 1
        if self.i > self.n:
            raise StopIteration
        return self.i
print(list(CountTo(4)), sum(CountTo(100)), iter(CountTo(1)).__class__.__name__)
