# Writes vm/objects/unicodedb.c from this Python's unicodedata (run with
# CPython 3.11: Unicode 14.0.0):
#   python3 vm/objects/unicodedb_gen.py > vm/objects/unicodedb.c
# The output is derived from the Unicode Character Database: see NOTICE for
# its source files and the Unicode license.
import sys, unicodedata

MAXCP = 0x110000

def ranges(pred):
    out, start = [], None
    for c in range(MAXCP):
        if pred(c):
            if start is None:
                start = c
        elif start is not None:
            out.append((start, c - 1))
            start = None
    if start is not None:
        out.append((start, MAXCP - 1))
    return out

def is_cased(c):
    ch = chr(c)
    return ch.islower() or ch.isupper() or unicodedata.category(ch) == 'Lt'

def is_case_ignorable(c):
    # Final-sigma context probe: an ignorable char is skipped when looking back
    # for a cased letter.
    a = ('A' + chr(c) + '\u03a3').lower().endswith('\u03c2')
    b = ('1' + chr(c) + '\u03a3').lower().endswith('\u03c2')
    return a and not b

PROPS = [
    ('alpha', lambda c: chr(c).isalpha()),
    ('decimal', lambda c: chr(c).isdecimal()),
    ('digit', lambda c: chr(c).isdigit()),
    ('numeric', lambda c: chr(c).isnumeric()),
    ('space', lambda c: chr(c).isspace()),
    ('printable', lambda c: chr(c).isprintable()),
    ('upper', lambda c: chr(c).isupper()),
    ('lower', lambda c: chr(c).islower()),
    ('title', lambda c: unicodedata.category(chr(c)) == 'Lt'),
    ('cased', is_cased),
    ('case_ignorable', is_case_ignorable),
    ('xid_start', lambda c: chr(c).isidentifier()),
    ('xid_continue', lambda c: ('a' + chr(c)).isidentifier()),
]

MAPS = [
    ('lower', lambda ch: ch.lower()),
    ('upper', lambda ch: ch.upper()),
    ('title', lambda ch: ch.title()),
    ('casefold', lambda ch: ch.casefold()),
]

w = sys.stdout.write
w('/* Unicode character properties and case mappings for str methods.\n')
w(' * GENERATED from CPython %s unicodedata (Unicode %s) by vm/objects/unicodedb_gen.py:\n'
  % (sys.version.split()[0], unicodedata.unidata_version))
w(' * python3 vm/objects/unicodedb_gen.py > vm/objects/unicodedb.c   Do not edit by hand.\n')
w(' * Data derived from the Unicode Character Database, (c) Unicode, Inc., under\n')
w(' * the Unicode license: see NOTICE (source files and license terms). */\n')
w('#include "strobj.h"\n\n')
w('typedef struct URange { uint32_t lo, hi; } URange;\n')
w('/* Simple mappings: cp in [lo, hi] with (cp - lo) % stride == 0 maps to cp + delta. */\n')
w('typedef struct UMapRun { uint32_t lo, hi; int32_t delta; uint32_t stride; } UMapRun;\n')
w('/* Mappings to more than one code point. */\n')
w('typedef struct UMapFull { uint32_t cp; uint32_t n; uint32_t to[3]; } UMapFull;\n\n')

for name, pred in PROPS:
    rs = ranges(pred)
    w('static const URange r_%s[%d] = {\n' % (name, len(rs)))
    line = ''
    for lo, hi in rs:
        item = '{0x%x,0x%x},' % (lo, hi)
        if len(line) + len(item) > 100:
            w(line + '\n'); line = ''
        line += item
    w(line + '\n};\n')

for name, fn in MAPS:
    simple, full = [], []
    for c in range(MAXCP):
        if 0xd800 <= c < 0xe000:
            continue
        m = fn(chr(c))
        if m == chr(c):
            continue
        if len(m) == 1:
            simple.append((c, ord(m) - c))
        else:
            full.append((c, [ord(x) for x in m]))
    runs = []
    for c, d in simple:
        if runs:
            lo, hi, delta, stride = runs[-1]
            if delta == d:
                if stride == 0 and c - hi in (1, 2):
                    runs[-1] = [lo, c, d, c - hi]; continue
                if stride and c - hi == stride:
                    runs[-1] = [lo, c, d, stride]; continue
        runs.append([c, c, d, 0])
    w('static const UMapRun m_%s[%d] = {\n' % (name, len(runs)))
    line = ''
    for lo, hi, d, s in runs:
        item = '{0x%x,0x%x,%d,%d},' % (lo, hi, d, s or 1)
        if len(line) + len(item) > 100:
            w(line + '\n'); line = ''
        line += item
    w(line + '\n};\n')
    w('static const UMapFull f_%s[%d] = {\n' % (name, max(1, len(full))))
    for c, m in full:
        assert len(m) <= 3
        w('{0x%x,%d,{%s}},\n' % (c, len(m), ','.join('0x%x' % x for x in m + [0] * (3 - len(m)))))
    if not full:
        w('{0,0,{0,0,0}},\n')
    w('};\n')
    w('#define NF_%s %d\n' % (name, len(full)))

zeros = [c for c in range(MAXCP) if unicodedata.decimal(chr(c), -1) == 0]
for z in zeros:
    assert all(unicodedata.decimal(chr(z + i), -1) == i for i in range(10))
w('/* Decimal digits (category Nd) come in runs of ten from a zero. */\n')
w('static const uint32_t decimal_zeros[%d] = {\n' % len(zeros))
w(','.join('0x%x' % z for z in zeros) + '\n};\n')

w('''
static bool in_ranges(const URange *t, size_t n, uint32_t cp)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (cp < t[mid].lo)
            hi = mid;
        else if (cp > t[mid].hi)
            lo = mid + 1;
        else
            return true;
    }
    return false;
}

static int map_cp(const UMapRun *runs, size_t nruns, const UMapFull *full, size_t nfull,
                  uint32_t cp, uint32_t out[3])
{
    size_t lo = 0, hi = nfull;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (cp < full[mid].cp)
            hi = mid;
        else if (cp > full[mid].cp)
            lo = mid + 1;
        else {
            for (uint32_t i = 0; i < full[mid].n; i++)
                out[i] = full[mid].to[i];
            return (int)full[mid].n;
        }
    }
    lo = 0, hi = nruns;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (cp < runs[mid].lo)
            hi = mid;
        else if (cp > runs[mid].hi)
            lo = mid + 1;
        else {
            if ((cp - runs[mid].lo) % runs[mid].stride == 0) {
                out[0] = (uint32_t)((int32_t)cp + runs[mid].delta);
                return 1;
            }
            break;
        }
    }
    out[0] = cp;
    return 1;
}
''')
for name, _ in PROPS:
    w('bool uni_is%s(uint32_t cp) { return in_ranges(r_%s, ARRAY_LEN(r_%s), cp); }\n'
      % (name.replace('_', ''), name, name))
w('''int uni_decimal_value(uint32_t cp)
{
    if (cp < 128)
        return cp >= '0' && cp <= '9' ? (int)(cp - '0') : -1;
    size_t lo = 0, hi = ARRAY_LEN(decimal_zeros);
    while (lo < hi) {   /* the last zero <= cp */
        size_t mid = (lo + hi) / 2;
        if (decimal_zeros[mid] <= cp)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || cp - decimal_zeros[lo - 1] > 9)
        return -1;
    return (int)(cp - decimal_zeros[lo - 1]);
}
''')
for name, _ in MAPS:
    w('int uni_to%s(uint32_t cp, uint32_t out[3]) { return map_cp(m_%s, ARRAY_LEN(m_%s), f_%s, NF_%s, cp, out); }\n'
      % (name, name, name, name, name))
