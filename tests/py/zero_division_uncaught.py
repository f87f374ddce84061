def avg(xs):
    return sum(xs) / len(xs)
print(avg([1, 2, 3]))
print(avg([]))
