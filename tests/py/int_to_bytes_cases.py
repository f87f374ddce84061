# int.to_bytes over lengths, byte orders and signedness, edge values
# included (-1 in 0 bytes, -2**63, powers of 256): the result is written
# straight into the bytes object (a huge length is one allocation).
import random

r = random.Random(3)
edges = [0, 1, -1, 127, 128, -128, -129, 255, 256, -256, -255, 2**63, -2**63, 2**64 - 1, -2**64]
values = edges + [r.randrange(-2**200, 2**200) for _ in range(150)] + [r.randrange(-2**20, 2**20) for _ in range(100)]
for n in values:
    row = []
    for length in [0, 1, 2, 3, 8, 9, 30]:
        for order in ['big', 'little']:
            for signed in [False, True]:
                try:
                    row.append(n.to_bytes(length, order, signed=signed).hex())
                except OverflowError as e:
                    row.append('E' if 'too big' in str(e) else 'N')
    print(' '.join(row))
print((5).to_bytes(3), (-5).to_bytes(3, 'little', signed=True), (0).to_bytes(0))
try:
    (1).to_bytes(2**62, 'big')
except MemoryError:
    print('MemoryError')
