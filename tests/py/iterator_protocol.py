class Countdown:
    def __init__(self, start):
        self.current = start
    def __iter__(self):
        return self
    def __next__(self):
        if self.current <= 0:
            raise StopIteration
        self.current -= 1
        return self.current + 1
print(list(Countdown(5)), sum(Countdown(10)), 3 in Countdown(5))
class Seq:
    def __getitem__(self, i):
        if i >= 4:
            raise IndexError
        return i * i
print(list(Seq()), 9 in Seq(), [x for x in Seq()])
class Tree:
    def __init__(self, v, kids=()):
        self.v, self.kids = v, kids
    def __iter__(self):
        yield self.v
        for k in self.kids:
            yield from k
t = Tree(1, [Tree(2, [Tree(3)]), Tree(4)])
print(list(t), max(t))
it = iter([1, 2, 3])
print(list(zip(it, it)), list(it))
class Range2:
    def __init__(self, n): self.n = n
    def __iter__(self): return iter(range(self.n))
    def __len__(self): return self.n
    def __reversed__(self): return iter(range(self.n - 1, -1, -1))
r = Range2(4); print(list(r), len(r), list(reversed(r)), sorted(r, reverse=True))
