# The re package's API on tmpy's _sre: sub templates and callables, bytes and
# bytes-like subjects, Match accessors, reprs, errors CPython raises, the
# module-level functions and the scanner.
import re

def attempt(f, *a, **k):
    try:
        return repr(f(*a, **k))
    except Exception as e:
        return '%s: %s' % (type(e).__name__, e)

# ---- sub / subn templates ----
for pat, repl, s in [
    (r'(\w+) (\w+)', r'\2 \1', 'hello world, foo bar'),
    (r'(?P<a>\d)', r'<\g<a>>', 'a1b2'), (r'(?P<a>\d)', r'<\g<1>\g<0>>', 'a1b2'),
    (r'x', r'\n\t\\', 'axb'), (r'x*', '-', 'abxd'), (r'', '-', 'abc'), (r'(a)|b', r'[\1]', 'ab'),
    (r'a', r'\x41', 'aaa'), (r'(a)', r'\9', 'a'), (r'(a)', r'\g<x>', 'a'), (r'(a)', r'\g<-1>', 'a'),
    (r'(a)', '\\', 'a'), (r'(a)', r'\q', 'a'), (r'(a)', r'\g<1', 'a'), (r'a', r'\0', 'a'),
    (r'(a)(b)?', r'[\2]', 'a'), (r'\s+', ' ', '  a  b   c '), (r'(?m)^', '> ', 'a\nb\nc'),
]:
    print('sub', pat, repl, attempt(re.sub, pat, repl, s), attempt(re.subn, pat, repl, s))
print(re.sub('a', 'b', 'aaaa', count=2), re.subn('a', 'b', 'aaaa', 3), re.sub('a', 'b', 'aaaa', 0))
print(re.subn('a', 'b', 'aaaa', -1), re.subn('', '-', 'ab', 1), re.split('a', 'bab', 0), re.split('a', 'babab', -5))
print(re.sub(r'\d', lambda m: str(int(m.group()) * 2), 'a1b2c3'))
print(attempt(re.sub, 'a', lambda m: 5, 'aa'), attempt(re.sub, 'a', lambda m: None, 'bab'))
print(attempt(re.sub, 'a', 5, 'aa'), attempt(re.sub, b'a', 'x', b'aa'), attempt(re.sub, 'a', b'x', 'aa'))
print(re.sub(r'(?i)b+', 'X', 'aBbBcb'), re.sub('(?x) a  b', 'Z', 'ab a b'))
m = re.search(r'(?P<first>\w+) (?P<last>\w+)', 'Jane Doe!')
print(m.expand(r'\g<last>, \g<first> (\1\2\g<0>)'), attempt(m.expand, r'\3'))

# ---- bytes ----
bp = re.compile(rb'(\w+)=(\d+)')
for subj in (b'a=1 bb=22', bytearray(b'x=9 y=8'), memoryview(b'k=7')):
    m = bp.search(subj)
    print(type(subj).__name__, m, m.groups(), type(m.group(1)).__name__, m.string == subj,
          bp.findall(subj), attempt(bp.sub, rb'\2=\1', subj), bp.sub(b'-', subj), bp.split(subj))
print(re.findall(rb'[^\x00-\x7f]+', b'a\xe9\xff b'), re.findall(rb'(?i)\xe9', b'\xc9\xe9'))
print(re.findall(rb'\w+', b'caf\xe9 na\xefve'), re.findall(rb'(?L)\w+', b'abc def'))
print(attempt(re.search, 'a', b'a'), attempt(re.search, b'a', 'a'), attempt(re.search, 'a', 5))
print(re.escape(b'a.b'), re.escape('a b\tc*'), re.purge())
print(re.match(rb'(?i)hello', b'HeLLo'), re.split(rb'\s', b'a b  c'))

# ---- Match API ----
p = re.compile(r'(?P<a>a)(?P<b>b)?(c)?')
m = p.match('acx', 0, 3)
print(m, m.re is p, m.string, m.pos, m.endpos, m.lastindex, m.lastgroup, m.regs)
print(m.group(), m.group(0), m.group(1, 'b', 3), m.group('a'), m[0], m['a'], m[3])
print(m.groups(), m.groups('-'), m.groupdict(), m.groupdict(default='?'))
print(m.start(), m.end(), m.span(), m.start('b'), m.end(2), m.span(3), m.span('a'))
for bad in (4, -1, 'zz', 1.5, None):
    print('group', repr(bad), attempt(m.group, bad), attempt(m.start, bad), attempt(lambda: m[bad]))
print(attempt(m.group, True), attempt(m.span, 1, 2), attempt(m.groups, 1, 2))
# a group argument with __index__ is a number (its errors propagate); huge ones name no group
class Index:
    def __init__(self, v): self.v = v
    def __index__(self): return self.v
class BadIndex:
    def __index__(self): raise ValueError('bad __index__')
print(m.group(Index(1)), m[Index(0)], m.span(Index(3)), m.start(Index(1)), m.group(Index(1), 'a'))
for bad in (BadIndex(), Index(5), 2 ** 100, -2 ** 100, [1]):
    print('group', type(bad).__name__, attempt(m.group, bad), attempt(m.end, bad), attempt(lambda: m[bad]))
print(repr(re.match('x' * 60, 'x' * 60)), repr(re.match(r'\n', '\n')), repr(re.match(b'q', b'q')))
print(re.match('(a)|(b)', 'b').lastindex, re.match('(a)(b)', 'ab').lastindex, re.match('((a)b)', 'ab').lastindex,
      re.match('(?P<n>(a)b)', 'ab').lastgroup, re.match('a', 'a').lastgroup)
import copy
print(copy.copy(m) is m, copy.deepcopy(m) is m, copy.copy(p) is p, copy.deepcopy(p) is p)
print(re.Match, re.Pattern, re.Pattern[str], re.Match[bytes])

# ---- Pattern API ----
print(repr(re.compile('a', re.I | re.M | re.S | re.X)), repr(re.compile(b'a', re.L)), repr(re.compile('a', re.A)))
print(repr(re.compile('x' * 300))[:40], len(repr(re.compile('x' * 300))), repr(re.compile('a', re.U)))
q = re.compile(r'(?P<w>\w)(?P<d>\d)?')
print(q.pattern, q.flags, q.groups, q.groupindex, sorted(q.groupindex))
print(re.compile('a') == re.compile('a'), re.compile('a') == re.compile('b'), re.compile('a') == re.compile('a', re.I),
      re.compile('a') != re.compile('a'), hash(re.compile('ab')) == hash(re.compile('ab')), re.compile('a') == 'a')
print(re.compile('a') is re.compile('a'), {re.compile('a'): 1}[re.compile('a')])
sc = re.compile(r'\d').scanner('a1b22')
print(sc.pattern.pattern, sc.search(), sc.search(), sc.match(), sc.search(), sc.search(), sc.search())
sc = re.compile(r'a*').scanner('aab')
print([sc.match() for _ in range(4)])
it = re.finditer(r'\w', 'ab')
print(next(it), next(it), next(it, 'done'))
print(re.compile(r'x').match(string='axb', pos=1), attempt(re.compile('x').match, 'x', pos='1'))
print(attempt(re.compile('x').match), attempt(re.compile('x').search, 'x', 0, 1, 2), attempt(re.compile('x').sub, 'y'))
print(re.compile('(?i)a').split('bAcad', maxsplit=1), re.split('x', 'axbxc', 1), re.split('(x)', 'axbxc'),
      re.split('x*', 'axbc'), re.split(r'\b', 'a b'), re.split('(a)|b', 'xaybz'), re.split('a', 'b', -1))

# ---- errors from the parser ----
for bad in ['(', ')', '[a', 'a**', '(?P<1>a)', '(?<=a*)b', r'\1', '(?P=x)', 'a{3,1}', '(?i', r'\p', '(?z)',
            '*a', '(?<=a|bc)', '[b-a]', 'x{99999999999}', '(?P<a>x)(?P<a>y)', '\\']:
    try:
        re.compile(bad)
        print('compiled', repr(bad))
    except re.error as e:
        print('error', repr(bad), e, e.pos, e.lineno, e.colno)
    except Exception as e:
        print('other', repr(bad), type(e).__name__, e)
try:
    re.compile('a\n(b')
except re.error as e:
    print(e.msg, e.pos, e.lineno, e.colno, str(e))
print(re.fullmatch(r'(?:(\d+)\.){3}\d+', '10.0.0.1').group(1), re.search(r'(?<=-)\w+', 'spam-egg').group())
print(re.match(r'(?x) (?P<x> \d+ ) \s* (?P<y> \d+ )', '12   34').groupdict())
print(re.findall(r'(\w)(\w)?', 'abc'), re.findall(r'', 'ab'), re.findall('(a)(?:b)(c)?', 'ab abc'))
print(hasattr(re, 'template'), re.I, re.IGNORECASE | re.M, re.RegexFlag(10))

# ---- the types themselves ----
for t in (re.Pattern, re.Match, type(re.compile('a').scanner('a'))):
    try:
        t()
    except TypeError as e:
        print('TypeError', e)
try:
    class P(re.Pattern):
        pass
except TypeError as e:
    print('TypeError', e)
try:
    re.match('a', 'a').foo = 1
except AttributeError as e:
    print('AttributeError', e)
s = 'héllo wörld'
print(re.match('.*', s).group() is s, re.search('(?s).+', s).group(0) == s, re.fullmatch(b'x+', b'xx').group() == b'xx')
class S(str):
    pass
m = re.match('.*', S('abc'))
print(type(m.group()).__name__, type(m.string).__name__, type(re.sub('b', 'x', S('abc'))).__name__)
