class Node:
    __slots__ = ("val", "next")
    def __init__(self, val, next=None):
        self.val, self.next = val, next
class LinkedList:
    def __init__(self, items=()):
        self.head = None
        self.size = 0
        for x in reversed(list(items)):
            self.push(x)
    def push(self, v):
        self.head = Node(v, self.head)
        self.size += 1
    def __iter__(self):
        n = self.head
        while n:
            yield n.val
            n = n.next
    def __len__(self):
        return self.size
    def reverse(self):
        prev, cur = None, self.head
        while cur:
            cur.next, prev, cur = prev, cur, cur.next
        self.head = prev
    def __repr__(self):
        return " -> ".join(map(str, self)) or "empty"
ll = LinkedList(range(6))
print(ll, len(ll))
ll.reverse(); print(ll)
print(LinkedList(), sum(ll), list(ll)[::2])
