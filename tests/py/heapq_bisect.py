import heapq, bisect
h = []
for x in [5, 3, 8, 1, 9, 2]:
    heapq.heappush(h, x)
print(h, [heapq.heappop(h) for _ in range(3)], h)
data = [9, 4, 7, 1, 3]; heapq.heapify(data); print(data, heapq.nsmallest(2, data), heapq.nlargest(2, data))
print(heapq.heappushpop([1, 5], 3), heapq.heapreplace([1, 5], 3), list(heapq.merge([1, 4], [2, 3], [0])))
tasks = []
for prio, name in [(3, "c"), (1, "a"), (2, "b")]:
    heapq.heappush(tasks, (prio, name))
print([heapq.heappop(tasks)[1] for _ in range(3)])
a = [1, 2, 4, 4, 8]
print(bisect.bisect_left(a, 4), bisect.bisect_right(a, 4), bisect.bisect(a, 5), bisect.bisect_left(a, 0))
bisect.insort(a, 3); bisect.insort_left(a, 4); print(a)
print(bisect.bisect_left([("a", 1), ("c", 3)], ("b", 0)), bisect.bisect([1, 3], 2, key=None))
