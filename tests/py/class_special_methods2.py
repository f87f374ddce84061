class Money:
    def __init__(self, cents): self.cents = cents
    def __repr__(self): return f"${self.cents / 100:.2f}"
    def __add__(self, o): return Money(self.cents + (o.cents if isinstance(o, Money) else int(o * 100)))
    __radd__ = __add__
    def __mul__(self, k): return Money(round(self.cents * k))
    def __truediv__(self, k): return Money(self.cents // k)
    def __floordiv__(self, k): return self.cents // k
    def __mod__(self, k): return Money(self.cents % k)
    def __pow__(self, k): return self.cents ** k
    def __lshift__(self, k): return Money(self.cents << k)
    def __and__(self, o): return "and"
    def __or__(self, o): return "or"
    def __xor__(self, o): return "xor"
    def __invert__(self): return "inv"
    def __pos__(self): return "pos"
    def __lt__(self, o): return self.cents < o.cents
    def __le__(self, o): return self.cents <= o.cents
    def __eq__(self, o): return isinstance(o, Money) and self.cents == o.cents
    def __hash__(self): return hash(self.cents)
    def __int__(self): return self.cents
    def __float__(self): return self.cents / 100
    def __round__(self, n=None): return "rounded"
    def __bool__(self): return self.cents != 0
m = Money(1050)
print(m + Money(25), 1.5 + m, sum([Money(1), Money(2)], Money(0)), m * 1.1, m / 4, m // 3, m % 7, Money(2) ** 3, m << 1)
print(m & 1, m | 1, m ^ 1, ~m, +m, m < Money(2000), m <= m, m == Money(1050), m != Money(1), int(m), float(m), round(m))
print(bool(Money(0)), bool(m), sorted([Money(5), Money(1), Money(3)]), max(Money(1), Money(9)), {m: 1}[Money(1050)])
class Seq:
    def __init__(self, n): self.n = n
    def __len__(self): return self.n
    def __getitem__(self, i):
        if isinstance(i, slice):
            return list(range(self.n))[i]
        if i < 0: i += self.n
        if not 0 <= i < self.n: raise IndexError("out")
        return i * 10
s = Seq(5)
print(len(s), s[1], s[-1], s[1:3], list(s), 20 in s, list(reversed(s)), bool(Seq(0)))
