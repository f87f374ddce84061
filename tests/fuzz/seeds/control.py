def process(items, limit=10):
    total = 0
    seen = set()
    for i, item in enumerate(items):
        if i >= limit:
            break
        elif item in seen:
            continue
        seen.add(item)
        try:
            value = int(item)
        except (TypeError, ValueError) as exc:
            print("skip", item, exc)
            continue
        except Exception:
            raise
        else:
            total += value
        finally:
            pass
    else:
        print("done")
    while total > 100:
        total //= 2
    with open("/dev/null") as f, open("/dev/null") as g:
        f.read(); g.read()
    assert total >= 0, "negative"
    del seen
    return total if total else None


result = [process(x) for x in (["1", "2", "x"], [3, 4]) if x]
squares = {n: n ** 2 for n in range(10) if n % 2 == 0}
gen = (c.upper() for c in "abc")
matrix = [[i * j for j in range(3)] for i in range(3)]
a, *rest = [1, 2, 3]
(b, c), d = (1, 2), 3
x = y = z = 0
x += 1; y -= 2; z *= 3
s = 'single' "double" '''triple''' r'raw\n' b'bytes'[0:1].decode()
n = -(~1) + (+2) - 0x10 + 0o7 + 0b1 + 1_000 + 2.5e-3 + .5j.imag if False else 0
lam = lambda *a, k=1, **kw: (a, k, kw)
print(f"{n:>{10}}", f"{s!r}", f"{x=}", f"{{literal}}")
