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
w('#define UD_VERSION "%s"\n' % unicodedata.unidata_version)

# Per code point: an index into records of (category, bidirectional,
# east_asian_width, mirrored, combining), through a two-level table of
# blocks of BLOCK code points (identical blocks shared).
cats, bidis, eaws = [], [], []
def idx(lst, v):
    if v not in lst:
        lst.append(v)
    return lst.index(v)
records, rec_index, per_cp = [], {}, []
for c in range(MAXCP):
    ch = chr(c)
    rec = (idx(cats, unicodedata.category(ch)), idx(bidis, unicodedata.bidirectional(ch)),
           idx(eaws, unicodedata.east_asian_width(ch)), unicodedata.mirrored(ch), unicodedata.combining(ch))
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
w('#define UD_BLOCK_SHIFT %d\n' % (BLOCK.bit_length() - 1))
strings('ud_categories', cats)
strings('ud_bidis', bidis)
strings('ud_eaws', eaws)
w('typedef struct UdRecord { uint8_t category, bidi, eaw, mirrored, combining; } UdRecord;\n')
w('static const UdRecord ud_records[%d] = {\n' % len(records))
for i in range(0, len(records), 6):
    w('    ' + ''.join('{%d,%d,%d,%d,%d},' % r for r in records[i:i + 6]) + '\n')
w('};\n')
table('ud_index1', 'uint16_t', index1)
table('ud_index2', 'uint8_t', [v for blk in blocks for v in blk], 32)

# Numeric values: code points with any, their decimal and digit values
# (-1: none) and numeric value as numerator / denominator.
from fractions import Fraction
nums = [c for c in range(MAXCP) if unicodedata.numeric(chr(c), None) is not None]
w('#define UD_NNUMERIC %d\n' % len(nums))
table('ud_num_cp', 'uint32_t', nums, 12)
table('ud_num_decimal', 'int8_t', [unicodedata.decimal(chr(c), -1) for c in nums], 32)
table('ud_num_digit', 'int8_t', [unicodedata.digit(chr(c), -1) for c in nums], 32)
fracs = [Fraction(unicodedata.numeric(chr(c))).limit_denominator(1000) for c in nums]
for c, f in zip(nums, fracs):
    assert float(f) == unicodedata.numeric(chr(c)), hex(c)
table('ud_num_numer', 'int64_t', [f.numerator for f in fracs], 8)
table('ud_num_denom', 'uint16_t', [f.denominator for f in fracs], 16)

# Decompositions (one level, as UnicodeData.txt gives them): the tag index
# (0: canonical) and the code points.
tags = ['']
decs = []
for c in range(MAXCP):
    d = unicodedata.decomposition(chr(c))
    if not d:
        continue
    parts = d.split()
    tag = 0
    if parts[0].startswith('<'):
        tag = idx(tags, parts[0])
        parts = parts[1:]
    decs.append((c, tag, [int(p, 16) for p in parts]))
strings('ud_decomp_tags', tags)
w('#define UD_NDECOMP %d\n' % len(decs))
table('ud_decomp_cp', 'uint32_t', [d[0] for d in decs], 12)
table('ud_decomp_tag', 'uint8_t', [d[1] for d in decs], 32)
offs, data = [0], []
for d in decs:
    data += d[2]
    offs.append(len(data))
table('ud_decomp_off', 'uint16_t', offs)
table('ud_decomp_data', 'uint32_t', data, 12)

# Primary composites: canonical pairs that NFC composes (not excluded).
pairs = []
for c, tag, parts in decs:
    if tag == 0 and len(parts) == 2 and unicodedata.normalize('NFC', chr(c)) == chr(c):
        pairs.append((parts[0], parts[1], c))
pairs.sort()
w('#define UD_NPAIRS %d\n' % len(pairs))
w('typedef struct UdPair { uint32_t first, second, composite; } UdPair;\n')
w('static const UdPair ud_pairs[%d] = {\n' % len(pairs))
for i in range(0, len(pairs), 4):
    w('    ' + ''.join('{0x%x,0x%x,0x%x},' % p for p in pairs[i:i + 4]) + '\n')
w('};\n')
