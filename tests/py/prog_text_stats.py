text = """Python is a programming language that lets you work quickly and integrate systems more effectively.
Python is powerful and fast; plays well with others; runs everywhere; is friendly and easy to learn; is open."""
sentences = [s.strip() for s in text.replace(";", ".").split(".") if s.strip()]
words = [w.strip(",;.").lower() for w in text.split()]
print(len(sentences), len(words), len(set(words)))
print(sorted({w for w in words if len(w) > 7}))
from collections import Counter
c = Counter(words)
print(c.most_common(4))
print(max(sentences, key=len)[:40], min(len(s) for s in sentences))
print({n: sum(1 for w in words if len(w) == n) for n in range(1, 6)})
print(" ".join(w[0].upper() + w[1:] for w in words[:6]))
