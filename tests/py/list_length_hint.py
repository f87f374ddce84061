# list() / extend() size themselves as CPython: len() or __length_hint__ first,
# so a length that can never fit is a MemoryError before any item is taken.
calls = []
class S:
    def __init__(self, n, lenv=None, hint=None): self.n, self.lenv, self.hint = n, lenv, hint
    def __iter__(self): calls.append('iter'); return iter(range(self.n))
class WithLen(S):
    def __len__(self):
        calls.append('len')
        if isinstance(self.lenv, Exception): raise self.lenv
        return self.lenv
class WithHint(S):
    def __length_hint__(self):
        calls.append('hint')
        if isinstance(self.hint, Exception): raise self.hint
        return self.hint
def t(label, f):
    calls.clear()
    try: r = f()
    except Exception as e: r = '%s: %s' % (type(e).__name__, e)
    print(label, r, calls)
t('len', lambda: list(WithLen(3, 3)))
t('len lies', lambda: list(WithLen(3, 100)))
t('len typeerror', lambda: list(WithLen(2, TypeError('x'))))
t('len valueerror', lambda: list(WithLen(2, ValueError('x'))))
t('hint', lambda: list(WithHint(2, hint=5)))
t('hint notimpl', lambda: list(WithHint(2, hint=NotImplemented)))
t('hint neg', lambda: list(WithHint(2, hint=-1)))
t('hint str', lambda: list(WithHint(2, hint='x')))
t('hint typeerror', lambda: list(WithHint(2, hint=TypeError('no'))))
t('hint keyerror', lambda: list(WithHint(2, hint=KeyError('no'))))
t('hint huge', lambda: list(WithHint(2, hint=2**70)))
t('hint big', lambda: list(WithHint(2, hint=2**60)))
t('tuple hint', lambda: tuple(WithHint(3, hint=1)))
t('extend', lambda: (lambda l: (l.extend(WithLen(2, 2)), l)[1])([9]))
t('gen', lambda: list(x for x in range(3)))
t('iadd', lambda: (lambda l: (l.__iadd__(WithHint(1, hint=1)), l)[1])([]))
import itertools
t('repeat huge', lambda: list(itertools.repeat(1, 2**50)))
t('range huge', lambda: tuple(range(2**50)))
