def check(x):
    assert isinstance(x, int), f"expected int, got {type(x).__name__}"
    assert x > 0
    return x
print(check(5))
for v in ["s", -1]:
    try:
        check(v)
    except AssertionError as e:
        print("AssertionError:", repr(e.args))
assert True
assert [1], "nonempty"
print("done")
