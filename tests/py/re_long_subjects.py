# Long subjects: the engine backtracks on heap stacks, so deep repeats of
# groups, alternations and lazy repeats over a million characters neither
# overflow the C stack nor crash; a pathological pattern is only slow.
import re

N = 100000
s = 'ab' * N + 'c'
print(re.match(r'(?:a|b)*c', s).span())
m = re.match(r'(?:(a)|(b))*c', s)
print(m.span(), m.groups(), m.lastindex)
print(re.match(r'(?:(a)|b)*?c', s).span(), re.fullmatch(r'(ab)+c', s).group(1))
print(re.match(r'(a|b)*d', s), re.search(r'(?:ab)*+c', s).span())
print(re.match(r'(?>(?:a|b)*)c', s).span(), re.match(r'((?:ab)*)\1', 'ab' * 1000).span())
print(len(re.findall(r'(?=(ab))', s[:4000])), len(re.split(r'(?<=a)', s[:4001])))
print(re.match(r'(?:x*)*y', 'x' * 18), re.match(r'(?:(x)+)+y', 'x' * 18))
u = 'é' * N + 'ß'
print(re.match(r'(?:é)*(ß)', u).span(), re.search(r'(?i)SS|ß', u).span())
b = b'\xff' * N + b'!'
print(re.match(rb'(?:\xff|x)*!', b).span(), re.sub(rb'\xff+', b'-', b))
print(re.sub(r'(a)(b)', r'\2\1', s[:4000])[:10], len(re.sub('b', '', s[:4000])))
