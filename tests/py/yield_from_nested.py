def leaf(n):
    for i in range(n):
        yield i
    return n * 10
def mid():
    a = yield from leaf(2)
    b = yield from leaf(3)
    return a + b
def top():
    r = yield from mid()
    yield ("result", r)
print(list(top()))
def flatten(x):
    for i in x:
        if isinstance(i, (list, tuple)):
            yield from flatten(i)
        else:
            yield i
print(list(flatten([1, [2, (3, [4])], [[5]]])))
