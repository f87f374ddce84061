print(0x_ff, 0o17, 0b1010, 1_000_000, 0xDEADBEEF, 0O7, 0B1, 00, 0)
print(1.5, .5, 5., 1e10, 1E-3, 1_0.2_5, 3.14e+2, 0e0, 1.7976931348623157e308)
print("s", 's', """t""", '''u''', b"b", B"B", r"\d", R"\w", u"uni", f"{1}", rb"\x", Rb"y")
print([], [1, 2,], (), (1,), (1, 2,), {}, {1: 2,}, {1, 2,}, ..., Ellipsis, ... is Ellipsis)
print(True, False, None, type(...).__name__, [...], {"e": ...})
x = [
    1,
    2,  # comment
    3
]
y = {"a":
     1}
print(x, y, (1 +
             2), 1 + \
    2)
