import random
random.seed(2024)
print(random.randint(-5, 5), random.randrange(100), random.randrange(10, 20), random.randrange(0, 100, 5))
print([round(random.uniform(-1, 1), 10) for _ in range(3)], random.choice(range(50)), random.getrandbits(10))
deck = [f"{r}{s}" for s in "SHDC" for r in "A23456789TJQK"]
random.shuffle(deck)
print(deck[:7])
print(random.sample(deck, 4), random.sample(range(1000), 3))
print([random.choices("abc", k=5) for _ in range(2)], random.choices([1, 2, 3], weights=[10, 1, 1], k=6))
print([round(random.expovariate(2.0), 10) for _ in range(2)], round(random.normalvariate(0, 1), 10))
random.seed(99)
a = [random.random() for _ in range(5)]
random.seed(99)
b = [random.random() for _ in range(5)]
print(a == b, a[0])
st = random.getstate()
x1 = random.random()
random.setstate(st)
print(random.random() == x1)
