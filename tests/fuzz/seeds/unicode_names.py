# \N{...} escapes and identifiers that NFKC changes (fuzzer seed)
s = "\N{BULLET}\N{latin small letter a}\N{HANGUL SYLLABLE GAG}\N{CJK UNIFIED IDEOGRAPH-4E00}\N{LF}"
t = f"{s}\N{EM DASH}{len(s)}"
ﬁ = 1
ｆｕｎｃ = lambda ｘ: ｘ + fi
é = 각 = func(2)
print(s, t, é, 각)
