name, n, pi = "world", 42, 3.14159
print(f"hello {name}! {n:5d} {pi:.3f} {n!r} {name!r:>10} {{literal}}")
print(f"{n=}", f"{pi=:.2f}", f"{name.upper()}", f"{[1, 2][0]}", f"{'nested'}")
width = 10
print(f"{'x':{width}}|", f"{n:0{width}d}", f"{n:#x} {n:#o} {n:#b} {n:x}")
print(f"{3+4}", f"{n if n > 40 else 0}", f"{'a' 'b'}", f"""{n}
multi""")
d = {"k": 1}
print(f"{d['k']}", f'{d["k"]}', f"{1e6:,.0f}", f"{-5:+}", f"{5:+}", f"{0.5:.0%}")
print(f"{'abc':*^9}", f"{12345:_}", f"{255:08b}", f"{3.0:g}", f"{1e-5:.1e}")
class P:
    def __format__(self, spec):
        return "P<" + spec + ">"
    def __repr__(self):
        return "P()"
    def __str__(self):
        return "p"
print(f"{P():xyz}", f"{P()!r}", f"{P()!s}", f"{P()}", format(P(), "q"))
