_n = 0
def double(x):
    return 2 * x
def counter():
    global _n
    _n += 1
    return _n
