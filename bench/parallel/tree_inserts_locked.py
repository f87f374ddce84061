# Shared data: one unbalanced binary search tree that every thread inserts
# its share of SIZE keys into, each insert under one threading.Lock: an
# insert reads a child link, then writes it, which a real program must not
# let two threads interleave (a lost subtree under any interpreter).
# The keys are scrambled so that the tree stays shallow (about 2 ln SIZE).
# Usage: tree_inserts_locked.py THREADS [SIZE]
import threading

from _threads import args, run_threads, share

SIZE = 200000


class Node:
    __slots__ = ("key", "left", "right")

    def __init__(self, key):
        self.key = key
        self.left = None
        self.right = None


class Tree:
    def __init__(self):
        self.root = None
        self.lock = threading.Lock()

    def insert(self, key):
        with self.lock:
            node = self.root
            if node is None:
                self.root = Node(key)
                return
            while True:
                if key < node.key:
                    if node.left is None:
                        node.left = Node(key)
                        return
                    node = node.left
                else:
                    if node.right is None:
                        node.right = Node(key)
                        return
                    node = node.right

    def in_order(self):
        stack, node = [], self.root
        while stack or node is not None:
            while node is not None:
                stack.append(node)
                node = node.left
            node = stack.pop()
            yield node.key
            node = node.right


def scrambled(i):
    # An odd multiplier modulo 2**32: distinct keys for distinct i.
    return (i * 2654435761) & 0xFFFFFFFF


def main():
    threads, size = args(SIZE)
    tree = Tree()

    def insert(k):
        for i in share(k, threads, size):
            tree.insert(scrambled(i))

    run_threads(threads, insert)
    count = total = 0
    ordered = True
    last = -1
    for key in tree.in_order():
        ordered = ordered and key > last
        last = key
        count += 1
        total += key
    print(f"{count} keys, sum {total}, in order: {ordered}")


main()
