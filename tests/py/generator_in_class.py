class Tree:
    def __init__(self, value, children=None):
        self.value = value
        self.children = children or []
    def walk(self, depth=0):
        yield depth, self.value
        for c in self.children:
            yield from c.walk(depth + 1)
    def __iter__(self):
        return (v for _, v in self.walk())
t = Tree("root", [Tree("a", [Tree("a1"), Tree("a2")]), Tree("b")])
for depth, v in t.walk():
    print("  " * depth + v)
print(list(t), len(list(t.walk())), max(t))
