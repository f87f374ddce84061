import bisect
def grade(score, breakpoints=[60, 70, 80, 90], grades="FDCBA"):
    return grades[bisect.bisect(breakpoints, score)]
print([grade(s) for s in [33, 99, 77, 70, 89, 90, 100]])
scores = []
for s in [88, 42, 97, 65, 71, 88, 50]:
    bisect.insort(scores, s)
print(scores, bisect.bisect_left(scores, 88), bisect.bisect_right(scores, 88))
