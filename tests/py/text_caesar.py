def caesar(s, k):
    out = []
    for ch in s:
        if ch.isalpha():
            base = ord("A") if ch.isupper() else ord("a")
            out.append(chr((ord(ch) - base + k) % 26 + base))
        else:
            out.append(ch)
    return "".join(out)
msg = "Hello, World! The quick brown fox."
enc = caesar(msg, 13)
print(enc, caesar(enc, 13) == msg)
def rle(s):
    out, i = [], 0
    while i < len(s):
        j = i
        while j < len(s) and s[j] == s[i]:
            j += 1
        out.append(f"{j - i}{s[i]}")
        i = j
    return "".join(out)
print(rle("aaabccddddde"), "".join(reversed("stressed")), "racecar" == "racecar"[::-1])
vowels = sum(1 for c in msg.lower() if c in "aeiou")
print(vowels, msg.swapcase(), " ".join(w[::-1] for w in msg.split()))
