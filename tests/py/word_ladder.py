from collections import deque
WORDS = set("cold cord card ward warm word worm wore core care bore bare".split())
def neighbours(w):
    for i in range(len(w)):
        for c in "abcdefghijklmnopqrstuvwxyz":
            cand = w[:i] + c + w[i + 1:]
            if cand != w and cand in WORDS:
                yield cand
def ladder(a, b):
    prev = {a: None}
    q = deque([a])
    while q:
        w = q.popleft()
        if w == b:
            path = []
            while w:
                path.append(w)
                w = prev[w]
            return path[::-1]
        for n in sorted(neighbours(w)):
            if n not in prev:
                prev[n] = w
                q.append(n)
print(ladder("cold", "warm"), ladder("bore", "card"), ladder("cold", "xxxx"))
