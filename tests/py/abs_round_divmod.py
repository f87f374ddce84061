print(abs(-5), abs(5.5), abs(-0.0), abs(-2**100), abs(True))
print(round(0.5), round(1.5), round(2.5), round(-1.5), round(3.14159, 3), round(-3.14159, 1), round(1234.5678, -2), round(5, 2))
print(divmod(13, 4), divmod(-13, 4), divmod(13, -4), divmod(13.5, 4), divmod(-13.5, 4), divmod(2**70, 3))
print(pow(2, 8), pow(2.0, 3), pow(4, 0.5), pow(-2, 3), pow(2, -2), pow(5, 3, 7), pow(0, 0))
class R:
    def __round__(self, n=None): return ("round", n)
    def __abs__(self): return "abs!"
print(round(R()), round(R(), 2), abs(R()))
