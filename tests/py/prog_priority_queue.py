import heapq
class Task:
    def __init__(self, prio, name):
        self.prio, self.name = prio, name
    def __lt__(self, other):
        return (self.prio, self.name) < (other.prio, other.name)
    def __repr__(self):
        return f"Task({self.prio}, {self.name!r})"
pq = []
for p, n in [(5, "write"), (1, "plan"), (3, "test"), (1, "coffee"), (4, "review")]:
    heapq.heappush(pq, Task(p, n))
order = []
while pq:
    order.append(heapq.heappop(pq))
print(order)
def dijkstra(graph, start):
    dist = {start: 0}
    pq = [(0, start)]
    while pq:
        d, u = heapq.heappop(pq)
        if d > dist.get(u, float("inf")):
            continue
        for v, w in graph.get(u, []):
            nd = d + w
            if nd < dist.get(v, float("inf")):
                dist[v] = nd
                heapq.heappush(pq, (nd, v))
    return dist
g = {"a": [("b", 7), ("c", 9), ("f", 14)], "b": [("c", 10), ("d", 15)], "c": [("d", 11), ("f", 2)], "d": [("e", 6)], "f": [("e", 9)]}
print(sorted(dijkstra(g, "a").items()))
