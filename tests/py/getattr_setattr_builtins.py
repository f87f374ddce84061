class O:
    a = 1
o = O()
setattr(o, "b", 2); print(getattr(o, "a"), getattr(o, "b"), getattr(o, "c", 3), hasattr(o, "a"), hasattr(o, "c"))
delattr(o, "b"); print(hasattr(o, "b"))
try:
    getattr(o, "zzz")
except AttributeError as e:
    print(e)
try:
    delattr(o, "zzz")
except AttributeError as e:
    print(e)
print(getattr([1, 2], "count")(1), getattr("abc", "upper")(), getattr(O, "a"), getattr(5, "bit_length")())
