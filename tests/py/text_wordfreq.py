text = """It was the best of times, it was the worst of times, it was the age of wisdom,
it was the age of foolishness, it was the epoch of belief, it was the epoch of incredulity"""
words = [w.strip(",.").lower() for w in text.split()]
freq = {}
for w in words:
    freq[w] = freq.get(w, 0) + 1
top = sorted(freq.items(), key=lambda kv: (-kv[1], kv[0]))
for w, c in top[:6]:
    print(f"{w:<10}{c:>3} {'#' * c}")
print(len(words), len(freq), max(words, key=len), sorted(set(len(w) for w in words)))
lines = text.splitlines()
print([len(l) for l in lines], lines[1].title()[:20], text.count("it was"), text.upper().count("IT WAS"))
