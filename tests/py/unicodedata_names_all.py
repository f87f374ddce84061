# unicodedata.name and lookup over every code point (what test_unicodedata's
# test_name_inverse_lookup does): each name looks back up to its character.
# Before the names index (vm/objects/unicodenames.c) each call scanned the
# whole table, and this took minutes.
import sys
import unicodedata

count = 0
check = 0
for i in range(sys.maxunicode + 1):
    name = unicodedata.name(chr(i), None)
    if name:
        count += 1
        if unicodedata.lookup(name) != chr(i):
            print("lookup differs", hex(i), name)
        check = (check * 31 + len(name) + ord(name[-1])) % 1000000007
print(count, check)
for name in ["LATIN SMALL LETTER A", "latin small letter a", "HANGUL SYLLABLE GAG", "CJK UNIFIED IDEOGRAPH-4E00",
             "NO SUCH NAME", "LATIN SMALL LETTER", "BYTE ORDER MARK", "SPACE"]:
    try:
        print(name, hex(ord(unicodedata.lookup(name))))
    except KeyError as e:
        print(name, "KeyError", e)
print(unicodedata.name("\x00", "none"), unicodedata.name("\U0010ffff", "none"), unicodedata.name("\uffff", "-"))
print(unicodedata.ucd_3_2_0.name("\u20ac"), unicodedata.ucd_3_2_0.name("\U0001f600", "unnamed in 3.2"))
