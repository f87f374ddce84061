# The _sre module itself: constants, the case helpers re/_compiler uses
# (checked over every code point), compile() of code lists _compiler emits,
# and compile()'s refusal of code the engine cannot run.
import _sre
import re
from re import _compiler, _parser

print(_sre.MAGIC, _sre.CODESIZE, _sre.MAXREPEAT, _sre.MAXGROUPS, _sre.getcodesize())
print(re._constants.MAGIC == _sre.MAGIC)

# case helpers over all code points, summarised
lower_sum = iscased_n = 0
diffs = []
for c in range(0x110000):
    lo = _sre.unicode_tolower(c)
    if lo != c:
        lower_sum = (lower_sum * 31 + c * 7 + lo) % (1 << 61)
    if _sre.unicode_iscased(c):
        iscased_n += 1
        iscased_sum = c
print('unicode_tolower', lower_sum, 'unicode_iscased', iscased_n, iscased_sum)
print([_sre.ascii_tolower(c) for c in (65, 90, 91, 97, 0xC0, 0x130)],
      [_sre.ascii_iscased(c) for c in (64, 65, 122, 123, 0xE9)],
      [_sre.unicode_tolower(c) for c in (0x130, 0x212A, 0x1E9E, 0x10400)])
for bad in (-1, 1 << 40, 'a', 1.0):
    try:
        _sre.unicode_tolower(bad)
    except (TypeError, OverflowError) as e:
        print('tolower', repr(bad), type(e).__name__)


def build(pattern, flags=0):
    p = _parser.parse(pattern, flags)
    code = [int(w) for w in _compiler._code(p, flags)]
    gi = dict(p.state.groupdict)
    ig = [None] * p.state.groups
    for k, i in gi.items():
        ig[i] = k
    return code, p.state.groups - 1, gi, tuple(ig), int(flags | p.state.flags)


for pat in [r'(?P<n>a|b)+c', r'x(?=y)', r'(?i)[a-zé]+', r'(\d+)-\1', r'a{2,5}?b', r'(?>a*)b', r'[\u0100-\u0200\d]']:
    code, groups, gi, ig, flags = build(pat)
    p = _sre.compile(pat, flags, code, groups, gi, ig)
    print(repr(p), p.groups, p.groupindex, [m.span() for m in p.finditer('ab aabc xy 12-12 aaab ĀĂ3 Éé')])
    # the same code without a pattern string: any subject type
    q = _sre.compile(None, flags, code, groups, gi, ig)
    print(repr(q.pattern), q.search('xx12-12aabbc'), q.search(b'aac') if '\u0100' not in pat else '')

# code the engine cannot run is refused (mutated code: tests/test_re_sre_code.py)
for bad in ([1 << 32], [-1], ['x'], [], [17, 0, 1]):
    try:
        _sre.compile('x', 0, bad, 0, {}, (None,))
        print('accepted', bad)
    except (RuntimeError, OverflowError, TypeError) as e:
        print(type(e).__name__, e)
for args in [('x', 0, (1,), 0, {}, ()), ('x', 0, [1], 0, [], ()), ('x', 0, [1], 0, {}, []), (1, 0, [1], 0, {}, ())]:
    try:
        _sre.compile(*args)
    except TypeError as e:
        print('TypeError')
print(_sre.compile('x', 0, [1], 0, {}, (None,)).match('abc'))
