# Threads blocked in socket calls while others run and allocate: four
# socketpairs, a thread at each end, round trips of messages built from
# fresh objects (so collections move things while threads wait in recv).
import _socket
import threading

PAIRS = 4
ROUNDS = 150
results = {}

def recv_exact(s, n):
    got = b""
    while len(got) < n:
        piece = s.recv(n - len(got))
        if not piece:
            raise EOFError
        got += piece
    return got

def ping(k, s):
    total = 0
    for i in range(ROUNDS):
        msg = ("%d:%d:" % (k, i) + "x" * (i % 50)).encode()
        s.sendall(len(msg).to_bytes(4, "big") + msg)
        n = int.from_bytes(recv_exact(s, 4), "big")
        reply = recv_exact(s, n)
        assert reply == msg[::-1], (reply, msg)
        total += len(reply)
        junk = [str(j) * 3 for j in range(30)]   # garbage between calls
    s.sendall((0).to_bytes(4, "big"))
    results[k] = total

def pong(s):
    while True:
        n = int.from_bytes(recv_exact(s, 4), "big")
        if n == 0:
            break
        msg = recv_exact(s, n)
        s.sendall(len(msg).to_bytes(4, "big") + bytes(reversed(msg)))

threads = []
pairs = [_socket.socketpair() for _ in range(PAIRS)]
for k, (a, b) in enumerate(pairs):
    threads.append(threading.Thread(target=ping, args=(k, a)))
    threads.append(threading.Thread(target=pong, args=(b,)))
for t in threads:
    t.start()
for t in threads:
    t.join()
for a, b in pairs:
    a.close()
    b.close()
print(sorted(results.items()))

# a recv with a timeout in one thread while another sends late
a, b = _socket.socketpair()
b.settimeout(5)
got = []
def reader():
    got.append(b.recv(10))
t = threading.Thread(target=reader)
t.start()
for _ in range(3):
    [list(range(100)) for _ in range(100)]
a.send(b"late")
t.join()
print(got)
a.close()
b.close()
