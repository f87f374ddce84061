def classify(n):
    return "neg" if n < 0 else "zero" if n == 0 else "small" if n < 10 else "big"
print([classify(v) for v in [-5, 0, 3, 50]])
x = 7
print("odd" if x % 2 else "even", (lambda v: "y" if v else "n")(0), [1, 2][0 if x > 5 else 1])
print(x if x > 100 else -x if x > 5 else 0, (1 if True else 2) + (3 if False else 4))
