# The re package (CPython's re/*.py on tmpy's _sre): many patterns and flags
# against many subjects, every Pattern method, every Match accessor.
import re

PATTERNS = [
    (r'a', 0), (r'abc', 0), (r'a*', 0), (r'a+b', 0), (r'(a)(b)?', 0),
    (r'(?P<x>\w+)\s(?P<y>\d+)', 0), (r'a|b|c', 0), (r'(a|ab)(c|bcd)(d*)', 0),
    (r'x*', 0), (r'^\s*$', re.M), (r'.', re.S), (r'.', 0), (r'(?i)hello', 0),
    (r'[a-f0-9]+', 0), (r'[^a-z]', 0), (r'(a+)+b', 0), (r'(?:(a)|b)*', 0),
    (r'(a*?)b', 0), (r'(?=a)a', 0), (r'(?!a).', 0), (r'(?<=a)b', 0), (r'(?<!a)b', 0),
    (r'(a)\1', 0), (r'(?i)(a)\1', 0), (r'(a)?(?(1)b|c)', 0), (r'(?P<q>["\'])?x(?(q)(?P=q))', 0),
    (r'(?>a+)b', 0), (r'(?>a|ab)c', 0), (r'a++b', 0), (r'a*+a', 0), (r'(?:ab)++', 0),
    (r'(?:aa|a){2}+', 0), (r'(?:a|b)*+c', 0), (r'a?+a', 0), (r'a{2,3}+', 0),
    (r'a{2,3}', 0), (r'a{2,3}?', 0), (r'(?:ab){2,}', 0), (r'(?:ab)*?c', 0), (r'a{,2}', 0),
    (r'\bfoo\b', 0), (r'\Bo', 0), (r'\b', 0), (r'\B', 0), (r'\d+', 0), (r'\D+', 0),
    (r'\s+', 0), (r'\S+', 0), (r'\W+', 0), (r'[\w.]+@[\w.]+', 0), (r'é+', 0),
    (r'(?i)straße', 0), (r'(?i)STRASSE', 0), (r'\w+', re.A), (r'[α-ω]+', re.I), (r'(?i)σ', 0),
    (r'(?i)[k]', 0), (r'(?i)\u212a', 0), (r'(?i)[a-z]+', re.A), (r'(?i)ǅ', 0),
    (r'$', 0), (r'a$', re.M), (r'a$', 0), (r'^a', re.M), (r'\Z', 0), (r'\A', 0), (r'(?m)^', 0),
    (r'(a)|(b)', 0), (r'(?:a|b)*c', 0), (r'(.*?)x', 0), (r'(?s).*', 0), (r'[\s\S]', 0),
    (r'(?:x|y)+?z', 0), (r'((a)|b)+', 0), (r'(a|b)*?c', 0), (r'(?:(a)|(b)|(c))+', 0),
    (r'([ab]*?)(b)?c', 0), (r'(?:()|a)*', 0), (r'(a*)*', 0), (r'(a*)+', 0), (r'(a|)*b', 0),
    (r'(?:a*)*?b', 0), (r'((?:a|b)*?)\1', 0), (r'(?P<a>.)(?P=a)', 0), (r'(\w)(?=(\w))', 0),
    (r'(?<=(a))b', 0), (r'(?<=ab|cd)e', 0), (r'(?<!x)(?<!y)z', 0), (r'(?=(a+))a*b\1', 0),
    (r'[^\W\d_]+', 0), (r'[\d\-+]+', 0), (r'[]a]', 0), (r'[^]a]', 0), (r'[a\]]+', 0),
    (r'\x41\u00e9\U0001F600', 0), (r'[\U0001F600-\U0001F64F]+', 0), (r'(?i)[\U00010400]', 0),
    (r'(?x) a b  # comment\n c', 0), (r'(?i:a)b', 0), (r'(?-i:a)b', re.I), (r'a(?#comment)b', 0),
    (r'[.^$*+?{}()|\\]', 0), (r'\.\*', 0), (r'a{3}', 0), (r'a{0}', 0), (r'(?:a{2})*', 0),
    (r'(ab|a)(bc|c)?', 0), (r'(?:(?:a)|(?:b))*?\b', 0), (r'(a)(?:(b)|c)(d)?', 0),
    (r'(?i)[^a]', 0), (r'(?i)[^k]', 0), (r'[^\x00-\x7f]', 0),
]

SUBJECTS = ['', 'a', 'ab', 'abc', 'aab', 'aaab', 'xaxbxcx', 'hello HELLO', 'foo bar 123 foo',
            'abcd', 'aaaaaaaaaaac', 'cab ba', 'x@y.com z@w.org', 'éééa',
            'STRASSE straße', 'αβγ ΑΒΓ Σσς', 'a\nb\na\n', 'xxy yz', 'ababab ab c', 'abbcd',
            'Kk\u212a', '"x" x \'x"', 'ǅǄǆ', 'a1-2+3_b', ']a]', '😀😃 x', '\U00010400\U00010428',
            'aab\nba\n', 'abcab', ' \t\n', 'x y z']


def show_match(m, groups):
    if m is None:
        return 'None'
    return '%r %r %r %r %r %r %r' % (m.span(), m.group(), m.groups(), m.groupdict(), m.lastindex,
                                     m.lastgroup, [m.span(i) for i in range(groups + 1)])


for pat, flags in PATTERNS:
    p = re.compile(pat, flags)
    print('PATTERN', repr(p), p.groups, p.groupindex, p.flags)
    for s in SUBJECTS:
        out = [show_match(p.match(s), p.groups), show_match(p.search(s), p.groups),
               show_match(p.fullmatch(s), p.groups)]
        out.append(repr(p.findall(s)))
        out.append(repr([(m.span(), m.groups()) for m in p.finditer(s)]))
        out.append(repr(p.split(s)))
        out.append(repr(p.subn('<>', s)))
        out.append(repr(p.sub(lambda m: '[' + m.group() + ']', s)))
        print(repr(s), ' | '.join(out))
    # pos / endpos
    for pos, endpos in ((1, None), (2, 3), (0, 0), (3, 1), (-5, 100)):
        s = 'aabcab ba'
        args = (s, pos) if endpos is None else (s, pos, endpos)
        print('pos', pos, endpos, show_match(p.match(*args), p.groups), show_match(p.search(*args), p.groups),
              p.findall(*args), [m.span() for m in p.finditer(*args)])
