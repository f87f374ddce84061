import random
random.seed(7)
accounts = {i: 1000 for i in range(10)}
log = []
for step in range(2000):
    a, b = random.sample(range(10), 2)
    amt = random.randint(1, 200)
    if accounts[a] >= amt:
        accounts[a] -= amt
        accounts[b] += amt
        log.append((a, b, amt))
print(sum(accounts.values()), len(log), sorted(accounts.values())[:3], log[:3])
