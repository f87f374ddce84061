# A small ray tracer: vector objects with operator methods, spheres and a
# plane, diffuse and specular lighting, reflections (objects, floats, calls).
import math
import sys


class Vec:
    __slots__ = ('x', 'y', 'z')

    def __init__(self, x, y, z):
        self.x = x
        self.y = y
        self.z = z

    def __add__(self, o):
        return Vec(self.x + o.x, self.y + o.y, self.z + o.z)

    def __sub__(self, o):
        return Vec(self.x - o.x, self.y - o.y, self.z - o.z)

    def scale(self, k):
        return Vec(self.x * k, self.y * k, self.z * k)

    def dot(self, o):
        return self.x * o.x + self.y * o.y + self.z * o.z

    def norm(self):
        return self.scale(1.0 / math.sqrt(self.dot(self)))


class Sphere:
    def __init__(self, centre, radius, colour, reflect):
        self.centre = centre
        self.radius = radius
        self.colour = colour
        self.reflect = reflect

    def intersect(self, origin, direction):
        oc = origin - self.centre
        b = oc.dot(direction)
        c = oc.dot(oc) - self.radius * self.radius
        disc = b * b - c
        if disc < 0:
            return None
        s = math.sqrt(disc)
        t = -b - s
        if t > 1e-6:
            return t
        t = -b + s
        return t if t > 1e-6 else None

    def normal_at(self, p):
        return (p - self.centre).norm()


class Plane:
    def __init__(self, point, normal, colour, reflect):
        self.point = point
        self.normal = normal
        self.colour = colour
        self.reflect = reflect

    def intersect(self, origin, direction):
        d = direction.dot(self.normal)
        if abs(d) < 1e-9:
            return None
        t = (self.point - origin).dot(self.normal) / d
        return t if t > 1e-6 else None

    def normal_at(self, p):
        return self.normal


class Scene:
    def __init__(self):
        self.objects = [
            Sphere(Vec(0.0, 1.0, 5.0), 1.0, Vec(0.9, 0.2, 0.2), 0.3),
            Sphere(Vec(-2.0, 0.7, 6.0), 0.7, Vec(0.2, 0.9, 0.2), 0.5),
            Sphere(Vec(2.0, 0.5, 4.5), 0.5, Vec(0.2, 0.2, 0.9), 0.1),
            Plane(Vec(0.0, 0.0, 0.0), Vec(0.0, 1.0, 0.0), Vec(0.8, 0.8, 0.8), 0.2),
        ]
        self.light = Vec(-3.0, 5.0, 0.0)

    def nearest(self, origin, direction):
        best = None
        best_t = 1e30
        for obj in self.objects:
            t = obj.intersect(origin, direction)
            if t is not None and t < best_t:
                best, best_t = obj, t
        return best, best_t

    def trace(self, origin, direction, depth):
        obj, t = self.nearest(origin, direction)
        if obj is None:
            return Vec(0.1, 0.1, 0.15)
        p = origin + direction.scale(t)
        n = obj.normal_at(p)
        to_light = (self.light - p).norm()
        shadow, st = self.nearest(p, to_light)
        lambert = max(0.0, n.dot(to_light))
        if shadow is not None:
            lambert *= 0.3
        colour = obj.colour.scale(0.1 + 0.9 * lambert)
        if depth > 0 and obj.reflect > 0:
            r = direction - n.scale(2 * direction.dot(n))
            colour = colour + self.trace(p, r.norm(), depth - 1).scale(obj.reflect)
        return colour


def render(w, h):
    scene = Scene()
    eye = Vec(0.0, 1.0, -1.0)
    total = 0.0
    rows = []
    for j in range(h):
        row = []
        for i in range(w):
            d = Vec((i - w / 2) / w, (h / 2 - j) / h, 1.0).norm()
            c = scene.trace(eye, d, 3)
            v = min(1.0, (c.x + c.y + c.z) / 3)
            total += v
            row.append(" .:-=+*#%@"[int(v * 9.99)])
        rows.append("".join(row))
    return rows, total


n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
rows, total = render(n, n // 2)
print(rows[len(rows) // 2])
print("%.6f" % total)
