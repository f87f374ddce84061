# The search's first-character table (sre start map) and BRANCH without
# choice points for alternatives that cannot start here: narrow and wide
# subjects, bytes, IGNORECASE, anchors, empty matches, alternatives that
# start with groups, and the regex-dna patterns.
import re

dna = ("GGCCGGGCGCGGTGGCTCACGCCTGTAATCCCAGCACTTTGGGAGGCCGAGGCGGGCGGATCACCTGAGGTC" * 7).lower()
dna += "agggtaaa tttaccct cgggtaaa tttacccg"
variants = [
    'agggtaaa|tttaccct', '[cgt]gggtaaa|tttaccc[acg]', 'a[act]ggtaaa|tttacc[agt]t',
    'agggtaa[cgt]|[acg]ttaccct', 'ag|ac|gg', 'a(g|c)g', '(?:gg|cc)+', 'c?ggg',
]
for p in variants:
    for subject in (dna, dna.encode(), dna + "\u20ac", dna + "\U0001f600"):
        pat = p if isinstance(subject, str) else p.encode()
        found = re.findall(pat, subject)
        print(p, type(subject).__name__, len(found), found[:3],
              re.search(pat, subject[5:]).span() if re.search(pat, subject[5:]) else None)

s = "Hello Wörld, hello wörld; HELLO \u20ac"
for p in ['hello|wörld', '(?i)hello|wörld', '(?i)W|€', '^Hello|x', 'x|$', 'l+|ö', '', 'a*|ö',
          '\\bw|\\bh', '(?:x|y)?H', '[^a-z ]|o']:
    print(repr(p), re.findall(p, s), [m.span() for m in re.finditer(p, s)][:4])
    print(repr(p), re.sub(p, "_", s), re.split(p, s, maxsplit=2))
b = b"abc\xe9\xc9 ABC \xff"
for p in [rb'(?i)\xe9|c', rb'\xff|z', rb'(?i)abc|\xc9', rb'[\x80-\xff]']:
    print(p, re.findall(p, b), re.search(p, b, re.LOCALE if b"(?i)" not in p else 0))
c = re.compile('ab|cd')
print(c.search('xxcdab', 3), c.search('xxcdab', 1, 3), c.search('xxcdab', 0, 5), c.search('xxcdab', 4, 6))
print(re.match('(a|ab)(c|bcd)(d*)', 'abcd').groups(), re.fullmatch('ab|abc', 'abc'))
print(re.findall('(ab|a)(?=c)|b', 'abcab'), re.findall(r'(x)?y|z', 'xyzy'))
