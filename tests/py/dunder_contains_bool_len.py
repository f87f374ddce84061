class Bag:
    def __init__(self, *items): self.items = list(items)
    def __len__(self): return len(self.items)
    def __contains__(self, x): return x in self.items
class Truthy:
    def __bool__(self): return False
    def __len__(self): return 5
print(bool(Bag()), bool(Bag(1)), 1 in Bag(1, 2), 3 not in Bag(1), bool(Truthy()), len(Truthy()))
print("yes" if Bag(0) else "no", "yes" if Truthy() else "no", not Bag(), [x for x in [Bag(), Bag(1)] if x].__len__())
class BadLen:
    def __len__(self): return -1
try:
    len(BadLen())
except ValueError as e:
    print("ValueError:", e)
