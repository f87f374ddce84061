# Identifiers outside ASCII are NFKC-normalised by the compiler (PEP 3131):
# ligatures, full-width letters, roman numerals, black-letter capitals,
# decomposed accents and Hangul jamo name the same variable as their NFKC
# form, in every kind of binding (assignment, def, class, attribute,
# keyword argument, import alias); strings given to getattr are not.
ﬁ = 5
print(fi)
ℌello = 1
print(Hello)


def ｆｕｎｃ(ｘ, *, ｋｗ=10):
    return ｘ * 2 + kw


print(func(3), func(1, kw=0), ｆunc(2, ｋw=1))


class Ｋ:
    ａｔｔｒ = 'full width'

    def __init__(self):
        self.Ⅸ = 9


k = K()
print(K.attr, getattr(K, 'attr'), k.IX, k.Ⅸ, vars(k))
try:
    getattr(K, 'ａｔｔｒ')
except AttributeError as e:
    print('AttributeError', e)
é = 'composed'
print(é, é)
é = 'decomposed'
print(é)
ộ = 'o with dot below and circumflex'
print(ộ)
각 = 'jamo'
print(각)
import math as 𝐦𝐚𝐭𝐡
print(math.pi == 3.141592653589793, 'math' in dir())
Ångström = 1
print(Ångström)
print(sorted(n for n in dir() if not n.startswith('__')))
ns = {}
exec('ﬂag = 1', ns)
print('flag' in ns, 'ﬂag' in ns)
print(eval('ﬁ + 1'), eval('fi + 2'))
lam = lambda ﬃ: ffi
print(lam(4))
print([ｙ for y in range(3)])
