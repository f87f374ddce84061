# Writes vm/objects/unicodedb.c from this Python's unicodedata (run with
# CPython 3.11: Unicode 14.0.0):
#   python3 vm/objects/unicodedb_gen.py > vm/objects/unicodedb.c
# and, with an argument, the data headers of character names (\N{...}) and
# of NFKC normalisation (identifiers):
#   python3 vm/objects/unicodedb_gen.py names > vm/objects/unicodenames_data.h
#   python3 vm/objects/unicodedb_gen.py norm > vm/objects/unicodenorm_data.h
# The output is derived from the Unicode Character Database: see NOTICE for
# its source files and the Unicode license.
import collections, os, re, sys, unicodedata

MAXCP = 0x110000

def header(what, cmd):
    w = sys.stdout.write
    w('/* %s\n' % what)
    w(' * GENERATED from CPython %s unicodedata (Unicode %s) by vm/objects/unicodedb_gen.py:\n'
      % (sys.version.split()[0], unicodedata.unidata_version))
    w(' * %s   Do not edit by hand.\n' % cmd)
    w(' * Data derived from the Unicode Character Database, (c) Unicode, Inc., under\n')
    w(' * the Unicode license: see NOTICE (source files and license terms). */\n')

def c_string(data, indent='    ', offset=0):
    """Bytes as C string literal lines (printable ASCII as is, else octal),
    each byte stored plus `offset` (mod 256): an offset that makes the most
    frequent small values printable makes the source far smaller."""
    out, line = [], ''
    for b in data:
        b = (b + offset) & 0xff
        if 32 <= b < 127 and b not in (34, 63, 92):   # not " ? (trigraphs) \
            piece = chr(b)
        else:
            piece = '\\%03o' % b
        line += piece
        if len(line) >= 100:
            out.append(indent + '"' + line + '"'); line = ''
    if line or not out:
        out.append(indent + '"' + line + '"')
    return '\n'.join(out)

# Names made by rule (prefix + the code point in hex): kept as ranges.
ALGORITHMIC = ('CJK UNIFIED IDEOGRAPH-', 'CJK COMPATIBILITY IDEOGRAPH-', 'TANGUT IDEOGRAPH-',
               'KHITAN SMALL SCRIPT CHARACTER-', 'NUSHU CHARACTER-')
PERL_NAMES = '/usr/share/perl/5.36.0/unicore/Name.pl'

def write_names():
    w = sys.stdout.write
    header('Unicode character names for \\N{...} escapes (unicodenames.c).',
           'python3 vm/objects/unicodedb_gen.py names > vm/objects/unicodenames_data.h')
    names, alg = {}, collections.defaultdict(list)
    for c in range(MAXCP):
        nm = unicodedata.name(chr(c), None)
        if nm is None or nm.startswith('HANGUL SYLLABLE '):
            continue   # Hangul syllables: named by rule in unicodenames.c
        pre = next((p for p in ALGORITHMIC if nm == p + '%04X' % c), None)
        if pre:
            r = alg[pre]
            if r and r[-1][1] == c - 1:
                r[-1][1] = c
            else:
                r.append([c, c])
            continue
        names[c] = nm
    count = collections.Counter(wd for nm in names.values() for wd in nm.split(' '))
    words = [wd for wd, _ in sorted(count.items(), key=lambda kv: (-kv[1], kv[0]))]
    assert len(words) < 1 << 15 and all(0 < len(wd) < 256 for wd in words)
    index = {wd: i for i, wd in enumerate(words)}
    lexicon = bytearray()
    for wd in words:
        lexicon.append(len(wd))
        lexicon += wd.encode('ascii')
    stream, prev = bytearray(), -1
    for c in sorted(names):
        delta = c - prev
        prev = c
        while delta >= 0x80:
            stream.append(0x80 | (delta & 0x7f)); delta >>= 7
        stream.append(delta)
        code = bytearray()
        for wd in names[c].split(' '):
            i = index[wd]
            code += bytes([i]) if i < 0x80 else bytes([0x80 | (i >> 8), i & 0xff])
        assert len(code) < 256
        stream.append(len(code))
        stream += code
    w('/* Every byte of the two tables below is stored plus UNI_BYTE_OFFSET (mod 256). */\n')
    w('#define UNI_BYTE_OFFSET 35\n')
    w('/* Words of the names, by frequency, each after its length byte. A word\n'
      ' * index i < 0x80 is one byte, else two: 0x80 | i >> 8, i & 0xff. */\n')
    w('#define UNI_NWORDS %d\n' % len(words))
    w('static const char uni_lexicon[%d] =\n%s;\n' % (len(lexicon) + 1, c_string(lexicon, offset=35)))
    w('/* Per named code point, in order: the distance from the previous one\n'
      ' * (7 bits a byte, low first, high bit: more), the length of its coded\n'
      ' * name, and the coded name (word indexes). */\n')
    w('static const char uni_names[%d] =\n%s;\n' % (len(stream) + 1, c_string(stream, offset=35)))
    w('/* Names that are a prefix and the code point in hex (4 or 5 digits). */\n')
    w('typedef struct UniRuleRange { const char *prefix; uint32_t lo, hi; } UniRuleRange;\n')
    rows = [(p, lo, hi) for p in ALGORITHMIC for lo, hi in alg.get(p, [])]
    w('static const UniRuleRange uni_rule_ranges[%d] = {\n' % max(1, len(rows)))
    for p, lo, hi in rows:
        w('    {"%s", 0x%x, 0x%x},\n' % (p, lo, hi))
    w('};\n')
    # Aliases (NameAliases.txt) accepted by \N{...}: unicodedata cannot list
    # them; perl's copy of the UCD names them, and each one kept is checked
    # with this Python's unicodedata.lookup.
    aliases = []
    if os.path.exists(PERL_NAMES):
        text = open(PERL_NAMES).read()
        body = text[text.index("<<'END';\n") + 9:text.index('\nEND\n')]
        for entry in body.strip().split('\n\n'):
            cps, nm = entry.split('\n')[:2]
            if ' ' in cps.strip():
                continue   # named sequences: not for \N{...}
            c = int(cps, 16)
            if nm == unicodedata.name(chr(c), None) or nm.startswith('HANGUL SYLLABLE '):
                continue
            try:
                if unicodedata.lookup(nm) == chr(c):
                    aliases.append((nm, c))
            except KeyError:
                pass
    w('typedef struct UniAlias { const char *name; uint32_t cp; } UniAlias;\n')
    w('static const UniAlias uni_aliases[%d] = {\n' % max(1, len(aliases)))
    for nm, c in sorted(set(aliases)):
        w('    {"%s", 0x%x},\n' % (nm, c))
    if not aliases:
        w('    {"", 0},\n')
    w('};\n#define UNI_NALIASES %d\n' % len(aliases))

def write_norm():
    w = sys.stdout.write
    header('NFKC normalisation data (unicodenorm.c): compatibility decompositions,\n'
           ' * canonical combining classes, primary composites.',
           'python3 vm/objects/unicodedb_gen.py norm > vm/objects/unicodenorm_data.h')
    # Decompositions, one level as UnicodeData.txt gives them: the tag index
    # into uni_decomp_tag_names (0: canonical) and the code points. The one
    # copy of them: unicodenorm.c applies them recursively (NFKC of
    # identifiers) and so does the unicodedata module (uni_norm_db).
    tags = ['']
    decs = []
    for c in range(MAXCP):
        d = unicodedata.decomposition(chr(c))
        if not d:
            continue
        parts = d.split()
        tag = 0
        if parts[0].startswith('<'):
            if parts[0] not in tags:
                tags.append(parts[0])
            tag = tags.index(parts[0])
            parts = parts[1:]
        decs.append((c, tag, [int(p, 16) for p in parts]))
    offsets, data = [0], []
    for d in decs:
        data += d[2]
        offsets.append(len(data))
    assert len(data) < 1 << 16
    w('static const uint32_t uni_decomp_cp[%d] = {\n' % len(decs))
    for i in range(0, len(decs), 12):
        w('    ' + ','.join('0x%x' % d[0] for d in decs[i:i + 12]) + ',\n')
    w('};\nstatic const uint8_t uni_decomp_tag[%d] = {\n' % len(decs))
    for i in range(0, len(decs), 32):
        w('    ' + ','.join(str(d[1]) for d in decs[i:i + 32]) + ',\n')
    w('};\n/* decomposition of uni_decomp_cp[i]: uni_decomp_data[off[i] .. off[i+1]) */\n')
    w('static const uint16_t uni_decomp_off[%d] = {\n' % len(offsets))
    for i in range(0, len(offsets), 16):
        w('    ' + ','.join(str(o) for o in offsets[i:i + 16]) + ',\n')
    w('};\nstatic const uint32_t uni_decomp_data[%d] = {\n' % len(data))
    for i in range(0, len(data), 12):
        w('    ' + ','.join('0x%x' % c for c in data[i:i + 12]) + ',\n')
    w('};\nstatic const char *const uni_decomp_tag_names[%d] = {\n' % len(tags))
    w('    ' + ' '.join('"%s",' % t for t in tags) + '\n};\n')
    # Canonical combining classes, as runs.
    runs = []
    for c in range(MAXCP):
        k = unicodedata.combining(chr(c))
        if not k:
            continue
        if runs and runs[-1][1] == c - 1 and runs[-1][2] == k:
            runs[-1][1] = c
        else:
            runs.append([c, c, k])
    w('static const UniCcc uni_ccc[%d] = {\n' % len(runs))
    for i in range(0, len(runs), 6):
        w('    ' + ''.join('{0x%x,0x%x,%d},' % tuple(r) for r in runs[i:i + 6]) + '\n')
    w('};\n')
    # Primary composites: a canonical decomposition into two that NFC
    # composes back (not excluded, not a non-starter decomposition).
    pairs = sorted((parts[0], parts[1], c) for c, tag, parts in decs
                   if tag == 0 and len(parts) == 2 and unicodedata.normalize('NFC', chr(c)) == chr(c))
    w('static const UniPair uni_pairs[%d] = {\n' % len(pairs))
    for i in range(0, len(pairs), 4):
        w('    ' + ''.join('{0x%x,0x%x,0x%x},' % p for p in pairs[i:i + 4]) + '\n')
    w('};\n')

if len(sys.argv) > 1:
    {'names': write_names, 'norm': write_norm}[sys.argv[1]]()
    sys.exit(0)

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
