def is_mersenne_prime(p):
    if p == 2:
        return True
    m = (1 << p) - 1
    s = 4
    for _ in range(p - 2):
        s = (s * s - 2) % m
    return s == 0

print([p for p in [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 61, 89, 107, 127, 521, 607] if is_mersenne_prime(p)])
print(is_mersenne_prime(2203), is_mersenne_prime(2281))
print(pow(3, 100000).bit_length(), pow(3, 100000) % 1000000007)
