class BST:
    def __init__(self):
        self.root = None
    def insert(self, k):
        def ins(node, k):
            if node is None:
                return [k, None, None]
            if k < node[0]:
                node[1] = ins(node[1], k)
            elif k > node[0]:
                node[2] = ins(node[2], k)
            return node
        self.root = ins(self.root, k)
    def inorder(self):
        out = []
        def walk(n):
            if n:
                walk(n[1]); out.append(n[0]); walk(n[2])
        walk(self.root)
        return out
    def height(self, n="root"):
        if n == "root":
            n = self.root
        return 0 if n is None else 1 + max(self.height(n[1]), self.height(n[2]))
    def __contains__(self, k):
        n = self.root
        while n:
            if k == n[0]:
                return True
            n = n[1] if k < n[0] else n[2]
        return False
t = BST()
for v in [50, 30, 70, 20, 40, 60, 80, 35, 45, 65]:
    t.insert(v)
print(t.inorder(), t.height(), 45 in t, 55 in t)
