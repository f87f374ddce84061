def compress(s):
    out = []
    i = 0
    while i < len(s):
        j = i
        while j < len(s) and s[j] == s[i]:
            j += 1
        out.append(s[i] + (str(j - i) if j - i > 1 else ""))
        i = j
    return "".join(out)
def expand(s):
    out, i = [], 0
    while i < len(s):
        ch = s[i]
        i += 1
        num = ""
        while i < len(s) and s[i].isdigit():
            num += s[i]
            i += 1
        out.append(ch * int(num or 1))
    return "".join(out)
for s in ["aaabccddddd", "abc", "", "zzzzzzzzzzzz", "aabbaa"]:
    c = compress(s)
    print(repr(s), repr(c), expand(c) == s)
