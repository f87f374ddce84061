# Trees of instances built in long transactions: major collections run in
# the middle of a transaction that has created old objects (nursery
# survivors). Under the STM barrier checker (TMPY_STM_CHECK=1) the
# collection's re-sharing once mapped those objects' pages read-only again,
# and the commit's own header store was reported as a missing barrier.
class Node:
    def __init__(self, key, children):
        self.key = key
        self.children = children


def build(depth):
    return Node(depth, [build(depth - 1) for _ in range(3)] if depth else [])


def count(n):
    return 1 + sum(count(c) for c in n.children)


total = 0
for i in range(8):
    tree = build(9)
    total += count(tree)
print(total, tree.key, len(tree.children))
