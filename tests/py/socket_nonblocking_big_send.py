# send() of a big buffer on a non-blocking stream socket sends a part (what
# the socket buffer takes: tmpy copies at most SO_SNDBUF bytes of it) and a
# loop over the rest delivers every byte in order, as asyncio's transports
# do; the same with a timeout socket and with sendall.
import hashlib
import select
import socket
import threading

DATA = bytes(range(256)) * (8 * 4096)   # 8 MiB


def reader(sock, size, out):
    got = []
    n = 0
    while n < size:
        chunk = sock.recv(1 << 20)
        if not chunk:
            break
        got.append(chunk)
        n += len(chunk)
    out.append(b"".join(got))


for mode in ("nonblocking", "timeout", "sendall"):
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    out = []
    t = threading.Thread(target=reader, args=(b, len(DATA), out))
    t.start()
    view = memoryview(DATA)
    sends = 0
    first = None
    if mode == "sendall":
        a.settimeout(10)
        a.sendall(DATA)
    else:
        if mode == "nonblocking":
            a.setblocking(False)
        else:
            a.settimeout(10)
        while view:
            try:
                n = a.send(view)
            except BlockingIOError:
                select.select([], [a], [])
                continue
            if first is None:
                first = n
            sends += 1
            view = view[n:]
    t.join()
    a.close()
    b.close()
    got = out[0]
    print(mode, len(got), hashlib.sha256(got).hexdigest() == hashlib.sha256(DATA).hexdigest(),
          "first send partial:", None if first is None else 0 < first < len(DATA), "more than one send:", sends > 1 or mode == "sendall")
