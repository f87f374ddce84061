# A StopIteration raised by the function given to map or filter ends a
# consumer (for, list(), sum(), yield from, ...) as exhaustion does, while
# next() passes it on with its arguments and the iterator can go on.
def f(x):
    if x == 3:
        raise StopIteration("stop at 3")
    return x * 10
print(list(map(f, range(6))))
for v in map(f, range(6)):
    print("for", v)
print(list(filter(lambda x: f(x) > 0, range(1, 6))))
m = map(f, range(6))
print(next(m), next(m), next(m))
try:
    next(m)
except StopIteration as e:
    print("StopIteration", e.args)
print(next(m))
print(sorted(map(f, range(6))), sum(map(f, range(5))), tuple(filter(f, range(1, 5))))
def g():
    yield from map(f, range(6))
print(list(g()))
def h():
    for v in map(f, range(6)):
        yield v
print(list(h()))
print(dict(zip("abcdef", map(f, range(6)))))
print(max(map(f, range(6))), any(map(f, range(3, 6))), "".join(map(lambda x: str(f(x)), range(6))))
print([y for y in map(f, range(6))], {y for y in filter(f, range(1,6))})
import itertools
# nested: the inner map's StopIteration reaches next() of the outer one as it is
outer = map(str, map(f, range(6)))
print(list(outer))
outer = map(str, map(f, range(6)))
print([next(outer) for _ in range(3)])
try:
    next(outer)
except StopIteration as e:
    print("nested StopIteration", e.args)
print(next(outer), next(outer, "default"), list(outer))
fl = filter(lambda x: f(x) >= 0, range(6))
print(list(fl), next(fl, "resumed"), list(fl))
print(list(zip(map(f, range(6)), "abcdef")), list(enumerate(map(f, range(2, 6)))))
