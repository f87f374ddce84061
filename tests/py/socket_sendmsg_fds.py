# sendmsg/recvmsg: scattered buffers, and file descriptors passed with
# SCM_RIGHTS (what multiprocessing and asyncio's unix transports do).
import _socket
import struct

a, b = _socket.socketpair()
print(a.sendmsg([b"he", bytearray(b"llo"), memoryview(b"!")]))
print(b.recvmsg(100))

c, d = _socket.socketpair()
anc = [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, struct.pack("2i", c.fileno(), d.fileno()))]
print(a.sendmsg([b"fds"], anc))
msg, ancdata, flags, addr = b.recvmsg(100, _socket.CMSG_SPACE(2 * 4))
print(msg, flags, addr, [(lvl == _socket.SOL_SOCKET, typ == _socket.SCM_RIGHTS, len(d)) for lvl, typ, d in ancdata])
fds = list(struct.unpack("2i", ancdata[0][2]))
print(sorted(fds) != sorted([c.fileno(), d.fileno()]))   # new numbers for the same sockets
passed = _socket.socket(fileno=fds[0])
print(passed.family == _socket.AF_UNIX, passed.type == _socket.SOCK_STREAM)
passed.sendall(b"through a passed fd")
print(d.recv(100))
passed.close()
_socket.close(fds[1])
c.close(); d.close()

print(a.sendmsg([b"x"], [], 0), b.recvmsg(10, _socket.CMSG_SPACE(4)))
b.settimeout(0.05)
try:
    b.recvmsg(10)
except TimeoutError as e:
    print("TimeoutError", e)
a.close()
print(b.recvmsg(10))
b.close()
try:
    b.recvmsg(10)
except OSError as e:
    print(type(e).__name__, e.errno)

# datagrams: the sender's address comes back
d1, d2 = _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_DGRAM)
d1.sendmsg([b"dg", b"ram"])
print(d2.recvmsg(10))
d1.close(); d2.close()

# recvfrom_into, CMSG_LEN's range, close(None)
d1, d2 = _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_DGRAM)
d1.send(b"into")
buf = bytearray(8)
print(d2.recvfrom_into(buf), buf)
d1.close(); d2.close()
big = 0x7fffffff - _socket.CMSG_LEN(0)
print(_socket.CMSG_LEN(big) <= 0x7fffffff)
for bad in (lambda: _socket.CMSG_LEN(big + 1), lambda: _socket.CMSG_LEN(-1), lambda: _socket.close(None)):
    try:
        bad()
    except (OverflowError, TypeError) as e:
        print(type(e).__name__)
