def lcs(a, b):
    dp = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            dp[i][j] = dp[i-1][j-1] + 1 if a[i-1] == b[j-1] else max(dp[i-1][j], dp[i][j-1])
    return dp[-1][-1]
def knapsack(items, cap):
    best = [0] * (cap + 1)
    for w, v in items:
        for c in range(cap, w - 1, -1):
            best[c] = max(best[c], best[c - w] + v)
    return best[cap]
def edit_distance(s, t):
    prev = list(range(len(t) + 1))
    for i, cs in enumerate(s, 1):
        cur = [i]
        for j, ct in enumerate(t, 1):
            cur.append(min(prev[j] + 1, cur[j-1] + 1, prev[j-1] + (cs != ct)))
        prev = cur
    return prev[-1]
memo = {}
def partitions(n, k=None):
    if k is None: k = n
    if n == 0: return 1
    if (n, k) in memo: return memo[(n, k)]
    r = sum(partitions(n - i, i) for i in range(1, min(n, k) + 1))
    memo[(n, k)] = r
    return r
print(lcs("AGGTAB", "GXTXAYB"), knapsack([(1, 1), (3, 4), (4, 5), (5, 7)], 7), edit_distance("kitten", "sitting"), partitions(60))
