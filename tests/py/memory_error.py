try:
    x = [0] * (2 ** 62)
except MemoryError:
    print("MemoryError caught")
try:
    s = "ab" * (2 ** 62)
except (MemoryError, OverflowError) as e:
    print("big str", type(e).__name__ in ("MemoryError", "OverflowError"))
print("still alive")
