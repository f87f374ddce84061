class Adder:
    def __init__(self, n): self.n = n
    def __call__(self, x, *, scale=1): return (x + self.n) * scale
add5 = Adder(5)
print(add5(1), add5(1, scale=3), list(map(add5, [1, 2])), callable(add5))
from functools import partial
def power(base, exp): return base ** exp
square = partial(power, exp=2); cube = partial(power, exp=3)
print(square(7), cube(2), partial(power, 2)(10), square.func.__name__)
