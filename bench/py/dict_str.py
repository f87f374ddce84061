# Dict and str heavy: word counting, string building, formatting, splitting.
import sys


def make_text(n):
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"]
    out = []
    x = 12345
    for i in range(n):
        x = (x * 1103515245 + 12345) & 0x7fffffff
        out.append(words[x % 10] + str(x % 97))
    return " ".join(out)


def count_words(text):
    counts = {}
    for w in text.split():
        counts[w] = counts.get(w, 0) + 1
    return counts


def transform(counts):
    d = {}
    for k, v in counts.items():
        key = k.upper().replace("A", "4")
        d[key] = "%s=%d" % (k, v)
    return d


n = int(sys.argv[1]) if len(sys.argv) > 1 else 200000
text = make_text(n)
counts = count_words(text)
t = transform(counts)
parts = sorted(t.values())
s = ",".join(parts)
print(len(counts), len(s), parts[0], parts[-1], s.count("beta"))
inv = {v: k for k, v in t.items()}
print(len(inv), sum(len(k) for k in inv), "%s|%5d|%-6s|" % ("x", len(inv), "ab"), f"{len(s):>10}")
