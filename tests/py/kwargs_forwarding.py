def target(a, b=0, *args, c=1, **kw):
    return f"a={a} b={b} args={args} c={c} kw={sorted(kw.items())}"
def forward(*args, **kwargs):
    return target(*args, **kwargs)
print(forward(1))
print(forward(1, 2, 3, 4, c=5, d=6))
print(forward(a=1, b=2, z=3))
opts = {"c": 9, "x": 1}
print(target(0, **opts), target(*[1, 2], **{"c": 3}))
try:
    target(1, a=2)
except TypeError as e:
    print(e)
try:
    target()
except TypeError as e:
    print(e)
try:
    forward(**{"a": 1}, **{"a": 2})
except TypeError as e:
    print(e)
