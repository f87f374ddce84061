s = "naïve café — 日本語 🐍"
print(s, len(s), s[6:10], s[-1], s.upper(), s.split(), s.encode("utf-8")[:12])
print([ord(c) for c in "aé日🐍"], "".join(chr(c) for c in [72, 233, 26085]))
print(s.find("日"), s.index("🐍"), "日本" in s, s.count("a"), s[::-1][:3])
print("ÉCOLE".lower(), "ß".upper())
print(repr("日本"), repr("\u200b"), repr("é"), ascii("é日"), "α")
print(sorted(["é", "e", "z", "a", "É"]), "abc" < "abé", max("日本語"))
print("x".join("日本語"), "日本語".center(9, "*"), f"{'日本':>6}|", "%5s|" % "日")
print("１２３".isdigit(), "٣".isdecimal(), "Ⅷ".isnumeric(), "日本".isalpha(), " \u3000".isspace())
