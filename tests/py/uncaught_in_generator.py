def g():
    yield 1
    raise ValueError("inside generator")
for x in g():
    print(x)
