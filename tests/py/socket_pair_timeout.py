# _socket objects: socketpair, recv_into, timeouts, non-blocking mode, errors
# on closed sockets, AF_UNIX in a temporary directory, dup and detach.
import sys, types
try:
    import select
except ImportError:   # select is another module's work: socket.py only names select.select at import
    _stand_in = types.ModuleType("select")
    _stand_in.select = None
    sys.modules["select"] = _stand_in
try:
    import array
except ImportError:   # array too: socket.py imports it for send_fds/recv_fds, used here by neither
    sys.modules["array"] = types.ModuleType("array")
import os
if not hasattr(os, "_get_exports_list"):   # tmpy's own os before CPython's os.py (the posix work)
    os._get_exports_list = lambda module: [n for n in dir(module) if n[0] != "_"]
import socket
import os
import tempfile

a, b = socket.socketpair()
print(a.family == socket.AF_UNIX, a.type == socket.SOCK_STREAM, a.proto)
print(a.gettimeout(), a.getblocking())
print(a.send(b"abc"), b.recv(10))
a.sendall(memoryview(b"0123456789"))
buf = bytearray(4)
print(b.recv_into(buf), buf)
print(b.recv_into(buf, 2), buf)
mv = memoryview(bytearray(10))
print(b.recv_into(mv[2:]), bytes(mv))

# timeouts
b.settimeout(0.05)
print(b.gettimeout(), b.getblocking())
try:
    b.recv(1)
except TimeoutError as e:
    print("TimeoutError", e, e.errno, isinstance(e, OSError), socket.timeout is TimeoutError)
b.settimeout(None)
print(b.gettimeout())
b.setblocking(False)
print(b.gettimeout(), b.getblocking())
try:
    b.recv(1)
except BlockingIOError as e:
    print("BlockingIOError", e.errno == 11)
b.setblocking(True)
try:
    b.settimeout(-1)
except ValueError as e:
    print("ValueError", e)

# errors on a closed socket
a.close()
a.close()   # twice is fine
print(a.fileno())
for call in (lambda: a.send(b"x"), lambda: a.recv(1), lambda: a.getsockname(),
             lambda: a.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1), lambda: a.listen()):
    try:
        call()
    except OSError as e:
        print(type(e).__name__, e.errno, e.strerror)
print(b.recv(10))   # the peer closed: end of stream
b.close()
try:
    b.recv(-1)
except ValueError as e:
    print("ValueError", e)

# AF_UNIX in a temporary directory
d = tempfile.mkdtemp()
if True:
    path = os.path.join(d, "sock")
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen()
    print(srv.getsockname() == path)
    cli = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    cli.connect(path)
    conn, addr = srv.accept()
    print(repr(addr), cli.getpeername() == path)
    cli.sendall(b"over unix")
    print(conn.recv(100))
    d2 = conn.dup()
    print(d2.fileno() != conn.fileno(), d2.family == socket.AF_UNIX)
    fd = d2.detach()
    print(d2.fileno())
    s3 = socket.socket(fileno=fd)
    print(s3.family == socket.AF_UNIX, s3.type == socket.SOCK_STREAM)
    s3.sendall(b"via dup")
    print(cli.recv(100))
    for s in (s3, conn, cli, srv):
        s.close()
    try:
        socket.socket(socket.AF_UNIX).connect(os.path.join(d, "missing"))
    except FileNotFoundError as e:
        print("FileNotFoundError", e.errno)
    os.unlink(path)
    os.rmdir(d)

# datagrams
u1, u2 = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
u1.send(b"one"); u1.send(b"two")
print(u2.recvfrom(10), u2.recv(10))
u1.close(); u2.close()

s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 0))
r = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
print(r.sendto(b"dgram", s.getsockname()))
data, addr = s.recvfrom(100)
print(data, addr[0], addr[1] == r.getsockname()[1])
s.close(); r.close()

# connection refused on a port nobody listens on
p = socket.socket()
p.bind(("127.0.0.1", 0))
port = p.getsockname()[1]
p.close()
c = socket.socket()
print(c.connect_ex(("127.0.0.1", port)) == 111)
c.close()
c = socket.socket()
try:
    c.connect(("127.0.0.1", port))
except ConnectionRefusedError as e:
    print("ConnectionRefusedError", e.errno)
c.close()

# the default timeout
print(socket.getdefaulttimeout())
socket.setdefaulttimeout(2.5)
s = socket.socket()
print(s.gettimeout(), s.getblocking())
s.close()
socket.setdefaulttimeout(None)
print(socket.getdefaulttimeout())

# a host name resolved (from /etc/hosts: no network) before connect and
# sendto: the resolver is a blocking call, during which objects move (with
# another thread alive, a blocking call hands the GIL on and collects)
import threading
done = threading.Event()
waiter = threading.Thread(target=done.wait)
waiter.start()
srv = socket.socket()
srv.bind(("localhost", 0))
srv.listen()
port = srv.getsockname()[1]
c = socket.socket()
c.connect(("localhost", port))
conn, _ = srv.accept()
print(c.getpeername() == conn.getsockname(), c.connect_ex(("localhost", port)))
c.sendall(b"by name")
print(conn.recv(100))
for s in (c, conn, srv):
    s.close()
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
u.bind(("localhost", 0))
v = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
v.sendto(b"to a name", ("localhost", u.getsockname()[1]))
print(u.recv(100))
u.close(); v.close()
done.set()
waiter.join()
