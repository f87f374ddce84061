# sum() of ints whose running total leaves the int64 range part-way: the
# total must go on exactly in big ints (not from a wrapped partial sum).
print(sum([2**60] * 9), sum([2**60] * 16), sum([2**61] * 5))
print(sum([10**18] * 10), sum([3 * 10**18] * 4))
print(sum(x * x for x in range(3200000)))
print(sum([-(2**62)] * 5), sum([2**62, 2**62, -(2**62)]))
print(sum([9223372036854775807, 1]), sum([-9223372036854775808, -1]))
print(sum([2**63 - 1, True]), sum([1, 2**63, 3]), sum([2**62] * 3, 2**62))
print(sum([2**62] * 4 + [0.5]), sum([2**62] * 2 + [-(2**62)] * 2))
