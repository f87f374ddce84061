samples = ["ascii", "café", "naïve", "日本", "emoji 🎉", "ÅÄÖ"]
for s in samples:
    b = s.encode("utf-8")
    print(len(s), len(b), b.decode("utf-8") == s, list(b[:4]))
print("abc".encode("ascii"), "é".encode("latin-1"), b"\xe9".decode("latin-1"))
try:
    "é".encode("ascii")
except UnicodeEncodeError as e:
    print("UnicodeEncodeError")
print("é".encode("ascii", "ignore"), "é".encode("ascii", "replace"), b"a\xffb".decode("utf-8", "replace"), b"a\xffb".decode("utf-8", "ignore"))
