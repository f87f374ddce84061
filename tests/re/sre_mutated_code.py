"""Run by tests/test_re_sre_code.py under tmpy only (CPython's own _sre
crashes on some of these): code lists re/_compiler emits, each word changed
in several ways; _sre.compile must refuse a list (RuntimeError) or run it
without crashing on a few subjects."""
import _sre
import sys
from re import _compiler, _parser

refused = accepted = 0
for pat in sys.argv[1:]:
    p = _parser.parse(pat, 0)
    code = [int(w) for w in _compiler._code(p, 0)]
    gi = dict(p.state.groupdict)
    ig = [None] * p.state.groups
    for k, i in gi.items():
        ig[i] = k
    groups = p.state.groups - 1
    for i in range(len(code)):
        for delta in (1, -1, 2, 7, 16, 1000, 1 << 31, -(1 << 16)):
            bad = list(code)
            bad[i] = (bad[i] + delta) % (1 << 32)
            for cut in (len(bad), len(bad) - 1):
                try:
                    q = _sre.compile('x', 0, bad[:cut], groups, gi, tuple(ig))
                except RuntimeError:
                    refused += 1
                    continue
                accepted += 1
                for s in ('', 'abcd', 'acbd', 'a' * 40 + 'd', 'zzz', 'ab\nab'):
                    q.search(s)
                    q.findall(s)
                    q.fullmatch(s)
print('ok', refused, accepted)
