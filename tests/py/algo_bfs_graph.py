from collections import deque
graph = {"a": ["b", "c"], "b": ["d"], "c": ["d", "e"], "d": ["f"], "e": ["f"], "f": []}
def bfs(start):
    seen, order, q = {start}, [], deque([start])
    while q:
        n = q.popleft()
        order.append(n)
        for m in graph[n]:
            if m not in seen:
                seen.add(m)
                q.append(m)
    return order
def dfs(n, seen=None):
    seen = [] if seen is None else seen
    seen.append(n)
    for m in graph[n]:
        if m not in seen:
            dfs(m, seen)
    return seen
def paths(a, b):
    if a == b:
        return [[b]]
    return [[a] + p for m in graph[a] for p in paths(m, b)]
print(bfs("a"), dfs("a"), paths("a", "f"))
