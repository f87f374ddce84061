# Fannkuch-redux: permutations and list slicing.
import sys


def fannkuch(n):
    perm1 = list(range(n))
    count = [0] * n
    maxflips = 0
    checksum = 0
    r = n
    permcount = 0
    while True:
        while r != 1:
            count[r - 1] = r
            r -= 1
        perm = perm1[:]
        flips = 0
        k = perm[0]
        while k:
            perm[:k + 1] = perm[k::-1]
            flips += 1
            k = perm[0]
        if flips > maxflips:
            maxflips = flips
        checksum += flips if permcount % 2 == 0 else -flips
        while True:
            if r == n:
                return checksum, maxflips
            perm0 = perm1[0]
            perm1[:r] = perm1[1:r + 1]
            perm1[r] = perm0
            count[r] -= 1
            if count[r] > 0:
                break
            r += 1
        permcount += 1


n = int(sys.argv[1]) if len(sys.argv) > 1 else 9
c, m = fannkuch(n)
print(c)
print("Pfannkuchen(%d) = %d" % (n, m))
