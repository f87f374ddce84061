# Complex literals in match patterns: value patterns (1j, -1j, 1+2j,
# -1.5-0j), inside sequence, mapping and or-patterns, with captures and
# guards; == semantics (1+0j matches 1 and True); the SyntaxErrors of
# malformed complex literals and duplicate mapping keys, with positions.


def classify(x):
    match x:
        case 0j:
            return 'zero'
        case 1j:
            return 'i'
        case -1j:
            return '-i'
        case 1 + 2j:
            return '1+2j'
        case -1 - 2j:
            return '-1-2j'
        case 1.5 - 0j:
            return '1.5'
        case 2 + 0.5j | 3 - 0.5j:
            return 'or'
        case [1j, 2j, *rest]:
            return 'seq %r' % (rest,)
        case {1j: v, -2+1j: w}:
            return 'map %r %r' % (v, w)
        case (0.5 + 0.5j) as h if abs(h) < 1:
            return 'as %r' % (h,)
        case complex(real=r, imag=i) if i > 100:
            return 'class %r %r' % (r, i)
        case complex():
            return 'other complex'
        case _:
            return 'no'


for x in [0, 0.0, 0j, -0j, False, 1j, complex(-0.0, 1), -1j, 1 + 2j, -1 - 2j, 1.5, 1.5 + 0j, 1.5 - 0j, 2 + 0.5j,
          3 - 0.5j, [1j, 2j], [1j, 2j, 3, 4], (1j, 2j, 5), {1j: 'a', complex(-2, 1): 'b', 3: 'c'}, {1j: 'a'},
          0.5 + 0.5j, 5 + 500j, 7j, 'x', None, [1j], complex(float('nan'), 1), 1, True]:
    print(repr(x), '->', classify(x))


def exact(x):
    match x:
        case 1 + 0j:
            return 'one'
        case 2.0 + 0j:
            return 'two'
        case 1e308 + 1e308j:
            return 'big'
        case -0.0 - 0j:
            return 'negzero'
    return 'none'


for x in [1, 1.0, True, 1 + 0j, 2, 2.0, 2 + 0j, complex(1e308, 1e308), 0, -0.0, 0j, 1 + 1e-16j]:
    print(repr(x), exact(x))

# keys that equal each other are duplicates
for src in ['{1: _, 1+0j: _}', '{1j: _, 0+1j: _}', '{-0j: _, 0j: _}', '{1.0: _, 1+0j: _}', '{True: _, 1+0j: _}',
            '{1j: _, 2j: _}', '{1+1j: _, 1-1j: _}', '{0: _, -0.0-0j: _}']:
    try:
        compile('match x:\n    case %s:\n        pass\n' % src, '<m>', 'exec')
        print(src, 'ok')
    except SyntaxError as e:
        print(src, 'SyntaxError', e.msg, e.lineno, e.offset, e.end_lineno, e.end_offset)

# malformed complex literals in patterns
for pat in ['1j', '-1j', '1+2j', '-1-2j', '1.5 - 0j', '1j+2j', '1+2', '-1j-2j', '1 + -2j', '1 + (2j)', '(1+2j)',
            '1+2j+3j', '0x1+2j', '1+0x2', '[1, 2j]', '{1j: _}', '{-1+2j: _, 1: _}', '0 | 3j', 'a+2j', '1+2j as z',
            '-(1+2j)', '1-2j.real', '2j(x)', '1+2J', '1e3+1e-3j', '1j-1', '-1-1', '[1 +\n 2j]', '{1+2: _}',
            '{1j+1j: _}', '[1-2]', 'x.y + 1j', '1 + 1j | 2 - 2', '--1j', '- 1 + 2j', '1 * 2j', '1 + 2j j']:
    src = 'match x:\n    case %s:\n        pass\n' % pat
    try:
        compile(src, '<m>', 'exec')
        print(repr(pat), 'ok')
    except SyntaxError as e:
        print(repr(pat), 'SyntaxError', e.msg, e.lineno, e.offset, e.end_lineno, e.end_offset)

# int parts beyond 2**53 are rounded to a float; too big for a float: no literal
big = '1' + '0' * 330
for pat in ['%s + 1j' % ('9' * 30), '-%s - 1j' % ('9' * 30), '0x%s + 2j' % ('f' * 40), '%s + 1j' % big,
            '-%s + 1j' % big, '{%s + 1j: _}' % big, '[%s - 1j]' % big, '9007199254740993 + 0j']:
    src = 'match x:\n    case %s:\n        r = "hit"\n' % pat
    try:
        code = compile(src, '<m>', 'exec')
    except SyntaxError as e:
        print(pat[:20], 'SyntaxError', e.msg, e.lineno, e.offset)
        continue
    for x in [complex(int('9' * 30), 1), complex(-int('9' * 30), -1), complex(int('f' * 40, 16), 2),
              9007199254740992, complex(9007199254740992, 0), 9007199254740993]:
        env = {'x': x}
        exec(code, env)
        print(pat[:20], repr(x), env.get('r'))
