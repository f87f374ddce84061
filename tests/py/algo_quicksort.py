def quicksort(xs):
    if len(xs) <= 1:
        return xs
    pivot, *rest = xs
    return quicksort([x for x in rest if x < pivot]) + [pivot] + quicksort([x for x in rest if x >= pivot])
def merge_sort(xs):
    if len(xs) < 2:
        return xs[:]
    mid = len(xs) // 2
    a, b = merge_sort(xs[:mid]), merge_sort(xs[mid:])
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        if a[i] <= b[j]:
            out.append(a[i]); i += 1
        else:
            out.append(b[j]); j += 1
    return out + a[i:] + b[j:]
seed = 7
data = []
for _ in range(500):
    seed = (seed * 1103515245 + 12345) % 2**31
    data.append(seed % 1000)
print(quicksort(data) == sorted(data), merge_sort(data) == sorted(data), quicksort(data)[:10])
