a = [1, 2]
a.append(a)
print(a, len(a))
d = {"k": 1}
d["self"] = d
print(d)
b = [a, a]
print(b)
class Node:
    def __init__(self): self.children = []
    def __repr__(self): return f"Node({self.children})"
n = Node(); n.children.append(Node())
print(n)
