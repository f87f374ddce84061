# sendto's argument-count message and CMSG_SPACE's upper limit, as CPython's.
import _socket
s = _socket.socket(_socket.AF_INET, _socket.SOCK_DGRAM)
for args in [(b"x",), (b"x", 0, ("127.0.0.1", 9), 5)]:
    try:
        s.sendto(*args)
    except TypeError as e:
        print(e)
lim = 0x7fffffff
print(_socket.CMSG_SPACE(lim - _socket.CMSG_SPACE(1)) <= lim)
try:
    _socket.CMSG_SPACE(lim - _socket.CMSG_SPACE(1) + 1)
except OverflowError as e:
    print("OverflowError")
s.close()
