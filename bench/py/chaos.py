# Chaos game: iterated function systems with a deterministic generator,
# spline-free variant of the classic chaosgame benchmark (floats, tuples,
# lists, method calls, a 2-D grid of ints).
import sys


class LCG:
    def __init__(self, seed):
        self.state = seed

    def random(self):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return (self.state >> 11) / float(1 << 53)


class IFS:
    def __init__(self, maps, weights):
        self.maps = maps
        total = float(sum(weights))
        acc = 0.0
        self.cumulative = []
        for w in weights:
            acc += w / total
            self.cumulative.append(acc)

    def pick(self, r):
        for i, c in enumerate(self.cumulative):
            if r <= c:
                return self.maps[i]
        return self.maps[-1]

    def step(self, point, r):
        a, b, c, d, e, f = self.pick(r)
        x, y = point
        return (a * x + b * y + e, c * x + d * y + f)


def chaos(iterations, size):
    fern = IFS([(0.0, 0.0, 0.0, 0.16, 0.0, 0.0),
                (0.85, 0.04, -0.04, 0.85, 0.0, 1.6),
                (0.2, -0.26, 0.23, 0.22, 0.0, 1.6),
                (-0.15, 0.28, 0.26, 0.24, 0.0, 0.44)],
               [1, 85, 7, 7])
    rng = LCG(42)
    grid = [[0] * size for _ in range(size)]
    p = (0.0, 0.0)
    for _ in range(iterations):
        p = fern.step(p, rng.random())
        x = int((p[0] + 2.75) / 5.5 * (size - 1))
        y = int(p[1] / 10.0 * (size - 1))
        if 0 <= x < size and 0 <= y < size:
            grid[y][x] += 1
    return grid


n = int(sys.argv[1]) if len(sys.argv) > 1 else 200000
g = chaos(n, 64)
print(sum(map(sum, g)), max(max(r) for r in g), sum(1 for r in g for v in r if v))
