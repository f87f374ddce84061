# CPython's Lib/string.py over tmpy's native _string: Formatter on str
# subclasses, an overridden format_field / get_value, parse(), Template;
# and _string's two scanners against random format strings (every result,
# errors included, folded into one checksum; FORMAT_FUZZ_PRINT=1 prints them).
import _string
import os
import random
import string


class S(str):
    pass


f = string.Formatter()
print(f.format("{0} {x!r:>6} {y[1]} {z.real}", S("a"), x=S("b"), y=[1, 2], z=3))
print(f.format(S("{0}-{1}"), "p", "q"), f.vformat("{a}", (), {"a": S("v")}))


class Upper(string.Formatter):
    def format_field(self, value, spec):
        return super().format_field(value, spec).upper()

    def get_value(self, key, args, kwargs):
        if isinstance(key, str) and key not in kwargs:
            return "<" + key + ">"
        return super().get_value(key, args, kwargs)


print(Upper().format("{a} and {0:>{w}} {missing}", "xy", a="hello", w=5))
print(list(f.parse("a{b!r:c}d{{")))
for bad in ("{0}{}", "{}{0}"):
    try:
        f.format(bad, 1, 2)
    except ValueError as e:
        print("ValueError", e)
print(string.Template("$who likes ${what}").substitute(who="tim", what="kung pao"))
print(string.Template("$who $$ $x").safe_substitute(who="a"))
print(string.capwords(" hello  world "), string.ascii_letters, repr(string.whitespace))


class T(string.Template):
    delimiter = "%"


print(T("%a-%{b}").substitute(a=1, b=2), string.Template("$a ${b} $a").get_identifiers())
print(type(_string.formatter_parser("")).__name__, type(_string.formatter_field_name_split("a")[1]).__name__)
for bad in (1, None):
    try:
        _string.formatter_parser(bad)
    except TypeError as e:
        print("TypeError", e)
print(list(_string.formatter_parser(S("a{b}"))), type(_string.formatter_field_name_split(S("a.b"))[0]).__name__)


def lazy(it):
    out = []
    try:
        for x in it:
            out.append(x)
    except ValueError as e:
        out.append("ValueError: " + str(e))
    return out


rng = random.Random(7)
alphabet = "{}[]:!.a0r\u0661\u00e9"
lines = []
for _ in range(1500):
    s = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 9)))
    lines.append(repr((s, lazy(_string.formatter_parser(s)))))
    try:
        first, rest = _string.formatter_field_name_split(s)
        lines.append(repr((s, first, lazy(rest))))
    except ValueError as e:
        lines.append(repr((s, "ValueError", str(e))))
text = "\n".join(lines)
if os.environ.get("FORMAT_FUZZ_PRINT"):
    print(text)
checksum = 0
for ch in text:
    checksum = (checksum * 1000003 + ord(ch)) % (2**61 - 1)
print(len(lines), checksum)
