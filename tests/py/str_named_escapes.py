# \N{...} escapes: names in any letter case, rule-made names (CJK ideographs,
# Hangul syllables, Nushu, Khitan), aliases (control codes, corrections,
# abbreviations), in f-strings, in the unicode_escape codec, and CPython's
# errors for unknown and malformed names.
import sys


def show(src):
    try:
        print(src, ascii(eval(src)))
    except SyntaxError as e:
        print(src, 'SyntaxError', e.msg)


for src in [r'"\N{LATIN SMALL LETTER A}"', r'"\N{latin small letter a}"', r'"\N{Latin Small Letter A}"',
            r'"x\N{BULLET}y\N{EM DASH}z"', r'"\N{GRINNING FACE}\N{SNOWMAN}"', r'"\N{DIGIT ZERO}\N{NULL}\N{SPACE}"',
            r'"\N{HYPHEN-MINUS}\N{NO-BREAK SPACE}"', r'"\N{GREEK SMALL LETTER FINAL SIGMA}"',
            r'"\N{LF}\N{CR}\N{TAB}\N{NBSP}"', r'"\N{LINE FEED}\N{CARRIAGE RETURN}"', r'"\N{BYTE ORDER MARK}"',
            r'"\N{LATIN CAPITAL LETTER GHA}"', r'"\N{ZWJ}"',
            r'"\N{HANGUL SYLLABLE GA}\N{HANGUL SYLLABLE GAG}\N{HANGUL SYLLABLE HIH}"',
            r'"\N{hangul syllable GAG}"', r'"\N{HANGUL SYLLABLE gag}"', r'"\N{HANGUL SYLLABLE GAX}"',
            r'"\N{CJK UNIFIED IDEOGRAPH-4E00}\N{CJK UNIFIED IDEOGRAPH-20000}"', r'"\N{cjk unified ideograph-4E00}"',
            r'"\N{CJK UNIFIED IDEOGRAPH-4e00}"', r'"\N{CJK UNIFIED IDEOGRAPH-0041}"', r'"\N{CJK UNIFIED IDEOGRAPH-4E0}"',
            r'"\N{CJK COMPATIBILITY IDEOGRAPH-F900}"', r'"\N{NUSHU CHARACTER-1B170}"',
            r'"\N{KHITAN SMALL SCRIPT CHARACTER-18B00}"', r'"\N{TANGUT IDEOGRAPH-17000}"',
            r'"\N{KEYCAP NUMBER SIGN}"', r'"\N{NOPE}"', r'"ab\N{NOPE}cd"', r'"\N"', r'"\N{"', r'"\N{}"', r'"\N{A"',
            r'"\N{ LATIN SMALL LETTER A}"', r'"\N{LATIN  SMALL LETTER A}"', r'"\N{LATIN SMALL LETTER A }"',
            r'"é\N{NOPE}"', r'r"\N{BULLET}"', r'b"\N{BULLET}"', r'f"\N{BULLET} {1 + 1} \N{EM DASH}"',
            r'f"{2}\N{LEFT CURLY BRACKET}{3}\N{RIGHT CURLY BRACKET}"', r'f"\N{NOPE}"',
            r'"\N{LATIN SMALL LETTER A WITH DIAERESIS}"', r'"\\N{BULLET}"',
            r'"\N{nushu character-1b170}"', r'"\N{cjk compatibility ideograph-f900}"', r'"\N{Hangul Syllable GAG}"',
            r'"\N{CJK UNIFIED IDEOGRAPH-04E00}"', r'"\N{CJK UNIFIED IDEOGRAPH-4E00A}"', r'"\N{HANGUL SYLLABLE }"',
            r'"\N{HANGUL SYLLABLE A}"', r'"éé\N{NOPE}"', r'"€\N{X}"', r'"é\xZ"', r'"€\N{A"', r'"é\N"',
            '"\\N{' + 'A' * 300 + '}"']:
    show(src)

for data in [b'\\N{LATIN SMALL LETTER B}', b'x\\N{bullet}y', b'\\N{NOPE}', b'\\N', b'\\N{', b'\\N{}', b'a\\N{NOPE']:
    for errors in ('strict', 'replace', 'ignore'):
        try:
            print(data, errors, ascii(data.decode('unicode_escape', errors)))
        except UnicodeDecodeError as e:
            print(data, errors, 'UnicodeDecodeError', e)
print(ascii(b'\\N{BULLET}'.decode('raw_unicode_escape')))
