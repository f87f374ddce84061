# Objects born old (classes, code objects, interned strings: the STM build
# gives them slots of shared small pages, young until their transaction's
# commit) made by one thread while another runs major collections: a
# collection must keep a young one alive in its page though no published
# object reaches it yet, and must not free it under the transaction. A third
# thread reads a file whole (the STM build reads it straight into the bytes
# object, in pieces, with safe points between) while the others commit.
import gc
import hashlib
import os
import sys
import tempfile
import threading

ROUNDS = 300
stop = threading.Event()
results = {}


def make_born_old():
    classes, codes, names = [], [], []
    for i in range(ROUNDS):
        name = "Born%d" % i
        classes.append(type(name, (), {"value": i}))
        codes.append(compile("x%d = %d * 2" % (i, i), "<born>", "exec"))
        names.append(sys.intern("interned_name_%d_" % i + "x" * (i % 40)))
    ok = all(c.__name__ == "Born%d" % i and c.value == i for i, c in enumerate(classes))
    ns = {}
    for code in codes:
        exec(code, ns)
    ok = ok and all(ns["x%d" % i] == 2 * i for i in range(ROUNDS))
    ok = ok and all(n == sys.intern("interned_name_%d_" % i + "x" * (i % 40)) for i, n in enumerate(names))
    results["born_old"] = ok


def collect():
    n = 0
    while not stop.is_set() and n < 2000:
        gc.collect()
        n += 1


def read_whole(path, digest):
    ok = True
    for _ in range(20):
        with open(path, "rb") as f:
            data = f.read()
        ok = ok and hashlib.sha256(data).hexdigest() == digest and len(data) == 3 << 20
    results["read"] = ok


def main():
    payload = bytes(range(256)) * (3 << 12)   # 3 MiB
    with tempfile.NamedTemporaryFile(delete=False) as f:
        f.write(payload)
        path = f.name
    try:
        digest = hashlib.sha256(payload).hexdigest()
        collector = threading.Thread(target=collect)
        workers = [threading.Thread(target=make_born_old),
                   threading.Thread(target=read_whole, args=(path, digest))]
        collector.start()
        for t in workers:
            t.start()
        for t in workers:
            t.join()
        stop.set()
        collector.join()
    finally:
        os.unlink(path)
    print("born-old objects intact:", results.get("born_old"))
    print("whole reads intact:", results.get("read"))


main()
