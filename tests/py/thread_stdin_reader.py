# stdin: alpha\nbeta\ngamma\n12 34\nlast line\n
# A thread reads stdin line by line with input() until EOF while other
# threads compute; the lines arrive in order and nothing is lost.
import sys
import threading

lines = []
lock = threading.Lock()
sums = []


def reader():
    while True:
        try:
            line = input()
        except EOFError:
            break
        lines.append(line)


def compute(k):
    s = 0
    for i in range(5000):
        s += i * k
    with lock:
        sums.append(s)


r = threading.Thread(target=reader)
r.start()
cs = [threading.Thread(target=compute, args=(k,)) for k in range(4)]
for t in cs:
    t.start()
for t in cs + [r]:
    t.join()
print("lines", lines)
print("sums", sorted(sums))
print("stdin at EOF", sys.stdin.readline() == "")
