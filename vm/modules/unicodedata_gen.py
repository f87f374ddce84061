# Writes vm/modules/unicodedata_data.h, the tables of the unicodedata module
# (vm/modules/unicodedatamodule.c), from this Python's unicodedata, run with
# CPython 3.11 (Unicode 14.0.0):
#   python3 vm/modules/unicodedata_gen.py > vm/modules/unicodedata_data.h
# The interpreter's own tables (str methods, names, NFKC of identifiers) are
# vm/objects/unicodedb_gen.py's. The output is data derived from the Unicode
# Character Database: see NOTICE for its source files and the Unicode license.
import sys, unicodedata

MAXCP = 0x110000
BLOCK = 128
w = sys.stdout.write


def table(name, ctype, values, per_line=16):
    w('static const %s %s[%d] = {\n' % (ctype, name, len(values)))
    for i in range(0, len(values), per_line):
        w('    ' + ','.join(str(v) for v in values[i:i + per_line]) + ',\n')
    w('};\n')


def strings(name, values):
    w('static const char *const %s[%d] = {\n' % (name, len(values)))
    for i in range(0, len(values), 8):
        w('    ' + ' '.join('"%s",' % v for v in values[i:i + 8]) + '\n')
    w('};\n')


w('/* The unicodedata module\'s tables (unicodedatamodule.c).\n')
w(' * GENERATED from CPython %s unicodedata (Unicode %s) by vm/modules/unicodedata_gen.py:\n'
  % (sys.version.split()[0], unicodedata.unidata_version))
w(' * python3 vm/modules/unicodedata_gen.py > vm/modules/unicodedata_data.h   Do not edit by hand.\n')
w(' * Data derived from the Unicode Character Database, (c) Unicode, Inc., under\n')
w(' * the Unicode license: see NOTICE (source files and license terms). */\n')

# Per code point: an index into records of (category, bidirectional,
# east_asian_width, mirrored, combining), through a two-level table of
# blocks of BLOCK code points (identical blocks shared). Every table is
# written for Unicode 14.0.0 (prefix ud_) and for the Unicode 3.2.0 database
# CPython keeps as unicodedata.ucd_3_2_0 (prefix ud32_); the strings of
# categories, classes and widths are shared.
from fractions import Fraction
cats, bidis, eaws, tags = [], [], [], ['']
def idx(lst, v):
    if v not in lst:
        lst.append(v)
    return lst.index(v)


def write_db(db, pre, own_norm):
    records, rec_index, per_cp = [], {}, []
    for c in range(MAXCP):
        ch = chr(c)
        rec = (idx(cats, db.category(ch)), idx(bidis, db.bidirectional(ch)),
               idx(eaws, db.east_asian_width(ch)), db.mirrored(ch), db.combining(ch))
        if rec not in rec_index:
            rec_index[rec] = len(records)
            records.append(rec)
        per_cp.append(rec_index[rec])
    blocks, block_index, index1 = [], {}, []
    for b in range(0, MAXCP, BLOCK):
        blk = tuple(per_cp[b:b + BLOCK])
        if blk not in block_index:
            block_index[blk] = len(blocks)
            blocks.append(blk)
        index1.append(block_index[blk])
    assert len(records) < 256 and len(blocks) < 65536
    w('static const UdRecord %srecords[%d] = {\n' % (pre, len(records)))
    for i in range(0, len(records), 6):
        w('    ' + ''.join('{%d,%d,%d,%d,%d},' % r for r in records[i:i + 6]) + '\n')
    w('};\n')
    table(pre + 'index1', 'uint16_t', index1)
    table(pre + 'index2', 'uint8_t', [v for blk in blocks for v in blk], 32)

    # Numeric values: code points with any, their decimal and digit values
    # (-1: none) and numeric value as numerator / denominator.
    # (CPython's ucd_3_2_0 keeps today's digit values where it drops the
    # numeric one, so a code point may have a digit value and no numeric one:
    # denominator 0.)
    nums = [c for c in range(MAXCP) if db.numeric(chr(c), None) is not None or db.digit(chr(c), None) is not None
            or db.decimal(chr(c), None) is not None]
    table(pre + 'num_cp', 'uint32_t', nums, 12)
    table(pre + 'num_decimal', 'int8_t', [db.decimal(chr(c), -1) for c in nums], 32)
    table(pre + 'num_digit', 'int8_t', [db.digit(chr(c), -1) for c in nums], 32)
    fracs = [Fraction(db.numeric(chr(c))).limit_denominator(1000) if db.numeric(chr(c), None) is not None else None
             for c in nums]
    for c, f in zip(nums, fracs):
        assert f is None or float(f) == db.numeric(chr(c)), hex(c)
    table(pre + 'num_numer', 'int64_t', [f.numerator if f is not None else 0 for f in fracs], 8)
    table(pre + 'num_denom', 'uint16_t', [f.denominator if f is not None else 0 for f in fracs], 16)

    # Decompositions (one level, as UnicodeData.txt gives them): the tag
    # index (0: canonical) and the code points.
    decs = []
    for c in range(MAXCP):
        d = db.decomposition(chr(c))
        if not d:
            continue
        parts = d.split()
        tag = 0
        if parts[0].startswith('<'):
            tag = idx(tags, parts[0])
            parts = parts[1:]
        decs.append((c, tag, [int(p, 16) for p in parts]))
    # (Unicode 14.0.0's decompositions and composites are the interpreter's
    # own, vm/objects/unicodenorm_data.h: uni_norm_db. Written here only for
    # ucd_3_2_0.)
    dmap = {c: (tag, parts) for c, tag, parts in decs}
    if own_norm:
        own_norm = write_norm_tables(db, pre, decs)
    # Code points the database has no name for that the current one names
    # (unassigned then): name() and lookup() refuse them.
    unnamed = [c for c in range(MAXCP) if db.name(chr(c), None) is None and unicodedata.name(chr(c), None)]
    ranges = []
    for c in unnamed:
        if ranges and ranges[-1][1] == c - 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])
    w('static const uint32_t %sunnamed[%d][2] = {\n' % (pre, max(1, len(ranges))))
    for i in range(0, len(ranges), 8):
        w('    ' + ''.join('{0x%x,0x%x},' % tuple(r) for r in ranges[i:i + 8]) + '\n')
    if not ranges:
        w('    {0x110000,0x110000},\n')
    w('};\n')
    # Normalization corrections: code points whose normal form in this
    # database is not what its decomposition() says (CPython's ucd_3_2_0
    # keeps the erroneous 3.2 mappings of a few CJK compatibility
    # ideographs): the one code point they decompose to instead.
    def full(c):
        if 0xac00 <= c <= 0xd7a3 or c not in dmap or dmap[c][0]:
            return chr(c)
        return ''.join(full(x) for x in dmap[c][1])
    corr = []
    for c in range(MAXCP):
        if 0xd800 <= c < 0xe000 or 0xac00 <= c <= 0xd7a3:
            continue
        n = db.normalize('NFD', chr(c))
        if n != full(c):
            assert len(n) == 1, hex(c)
            corr.append((c, ord(n)))
    if own_norm:
        w('static const uint32_t %scorrections[%d][2] = {\n' % (pre, max(1, len(corr))))
        w('    ' + ''.join('{0x%x,0x%x},' % p for p in corr) + ('' if corr else '{0x110000,0x110000},') + '\n};\n')
        w('static const UniNormDb %snorm = {%d, %sdecomp_cp, %sdecomp_tag, %sdecomp_off, %sdecomp_data, ud_decomp_tags, '
          '%d, %spairs, %scorrections, %d};\n'
          % (pre, len(decs), pre, pre, pre, pre, len(own_norm), pre, pre, len(corr)))
    else:
        assert not corr
    w('static const UdDb %sdb = {"%s", %srecords, %sindex1, %sindex2, %d, %snum_cp, %snum_decimal, %snum_digit, '
      '%snum_numer, %snum_denom, %s, %sunnamed, %d};\n'
      % (pre, db.unidata_version, pre, pre, pre, len(nums), pre, pre, pre, pre, pre,
         '&%snorm' % pre if own_norm else '&uni_norm_db', pre, len(ranges)))


def write_norm_tables(db, pre, decs):
    """The one-level decompositions (tag index, code points) and the primary
    composites of `db`, as a UniNormDb's tables; returns the composites."""
    table(pre + 'decomp_cp', 'uint32_t', [d[0] for d in decs], 12)
    table(pre + 'decomp_tag', 'uint8_t', [d[1] for d in decs], 32)
    offs, data = [0], []
    for d in decs:
        data += d[2]
        offs.append(len(data))
    table(pre + 'decomp_off', 'uint16_t', offs)
    table(pre + 'decomp_data', 'uint32_t', data, 12)
    # Primary composites: canonical pairs that NFC composes (not excluded).
    pairs = []
    for c, tag, parts in decs:
        if tag == 0 and len(parts) == 2 and db.normalize('NFC', chr(c)) == chr(c):
            pairs.append((parts[0], parts[1], c))
    pairs.sort()
    w('static const UniPair %spairs[%d] = {\n' % (pre, len(pairs)))
    for i in range(0, len(pairs), 4):
        w('    ' + ''.join('{0x%x,0x%x,0x%x},' % p for p in pairs[i:i + 4]) + '\n')
    w('};\n')
    return pairs


w('#define UD_BLOCK_SHIFT %d\n' % (BLOCK.bit_length() - 1))
w('typedef struct UdRecord { uint8_t category, bidi, eaw, mirrored, combining; } UdRecord;\n')
w('''typedef struct UdDb {
    const char *version;
    const UdRecord *records;
    const uint16_t *index1;
    const uint8_t *index2;
    int nnumeric;
    const uint32_t *num_cp;
    const int8_t *num_decimal, *num_digit;
    const int64_t *num_numer;
    const uint16_t *num_denom;
    const UniNormDb *norm;   /* decompositions and composites */
    const uint32_t (*unnamed)[2];   /* ranges named now but not in this version */
    int nunnamed;
} UdDb;
''')
# the tag strings come first: ud32_norm refers to them
for d in (unicodedata, unicodedata.ucd_3_2_0):
    for c in range(MAXCP):
        t = d.decomposition(chr(c))
        if t.startswith('<'):
            idx(tags, t.split()[0])
strings('ud_decomp_tags', tags)
write_db(unicodedata, 'ud_', False)
write_db(unicodedata.ucd_3_2_0, 'ud32_', True)
strings('ud_categories', cats)
strings('ud_bidis', bidis)
strings('ud_eaws', eaws)
