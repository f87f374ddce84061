from collections import defaultdict
class Inventory:
    def __init__(self):
        self.stock = defaultdict(int)
        self.prices = {}
    def add(self, item, qty, price):
        self.stock[item] += qty
        self.prices[item] = price
    def remove(self, item, qty):
        if self.stock[item] < qty:
            raise ValueError(f"not enough {item}: have {self.stock[item]}, want {qty}")
        self.stock[item] -= qty
    def value(self):
        return sum(q * self.prices[i] for i, q in self.stock.items())
    def report(self):
        lines = [f"{i:<8}{q:>4}{self.prices[i]:>8.2f}" for i, q in sorted(self.stock.items())]
        return "\n".join(lines)
inv = Inventory()
for item, q, p in [("apple", 50, 0.5), ("pear", 20, 0.75), ("kiwi", 100, 0.2), ("apple", 10, 0.55)]:
    inv.add(item, q, p)
inv.remove("kiwi", 30)
try:
    inv.remove("pear", 99)
except ValueError as e:
    print("error:", e)
print(inv.report())
print(f"total value: {inv.value():.2f}")
