# The _socket module's functions: name and address conversions, with no
# network access (numeric addresses and the local files only).
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
import _socket

for args in [("127.0.0.1", 80), ("127.0.0.1", "80"), ("127.0.0.1", None), ("::1", 8080)]:
    res = socket.getaddrinfo(*args, type=socket.SOCK_STREAM)
    print(args, [(str(f), str(t), p, c, a) for f, t, p, c, a in res])
print(socket.getaddrinfo("127.0.0.1", 53, socket.AF_INET, socket.SOCK_DGRAM, 0, socket.AI_NUMERICHOST))
try:
    socket.getaddrinfo("not an address", 80, flags=socket.AI_NUMERICHOST)
except socket.gaierror as e:
    print("gaierror", e.errno == socket.EAI_NONAME, isinstance(e, OSError))
print(socket.getnameinfo(("127.0.0.1", 80), socket.NI_NUMERICHOST | socket.NI_NUMERICSERV))
print(socket.gethostbyname("127.0.0.1"))
print(type(socket.gethostname()))

for ip in ["0.0.0.0", "1.2.3.4", "255.255.255.255", "10.0.0.1"]:
    packed = socket.inet_aton(ip)
    print(ip, packed, socket.inet_ntoa(packed), socket.inet_pton(socket.AF_INET, ip) == packed)
for ip in ["::", "::1", "fe80::1:2", "2001:db8::ff00:42:8329", "::ffff:1.2.3.4"]:
    packed = socket.inet_pton(socket.AF_INET6, ip)
    print(ip, len(packed), socket.inet_ntop(socket.AF_INET6, packed))
for bad in [lambda: socket.inet_aton("1.2.3.400"), lambda: socket.inet_pton(socket.AF_INET, "1.2.3"),
            lambda: socket.inet_ntoa(b"123"), lambda: socket.inet_ntop(socket.AF_INET, b"12345"),
            lambda: socket.htons(-1), lambda: socket.htons(70000), lambda: socket.htonl(2**32)]:
    try:
        bad()
    except (OSError, ValueError, OverflowError) as e:
        print(type(e).__name__, e)
print(socket.htons(1), socket.ntohs(256), socket.htonl(1), socket.ntohl(1 << 24))
print(socket.getservbyname("http", "tcp"), socket.getservbyport(80, "tcp"), socket.getprotobyname("tcp"))
try:
    socket.getservbyname("no-such-service")
except OSError as e:
    print("OSError", e)
print(socket.CMSG_LEN(4) > 4, socket.CMSG_SPACE(4) >= socket.CMSG_LEN(4))
print(any(name == "lo" for _, name in socket.if_nameindex()), socket.if_indextoname(socket.if_nametoindex("lo")))

# constants and names socket.py and its users look for
for name in ["AF_INET", "AF_INET6", "AF_UNIX", "SOCK_STREAM", "SOCK_DGRAM", "SOCK_NONBLOCK", "SOCK_CLOEXEC",
             "SOL_SOCKET", "SO_REUSEADDR", "SO_ERROR", "IPPROTO_TCP", "TCP_NODELAY", "MSG_PEEK",
             "SHUT_RDWR", "AI_PASSIVE", "NI_NUMERICHOST", "EAI_NONAME", "SOMAXCONN", "INADDR_ANY",
             "IPV6_V6ONLY", "IPPROTO_IPV6", "SCM_RIGHTS"]:
    print(name, getattr(_socket, name))
print(_socket.error is OSError, _socket.timeout is TimeoutError, issubclass(_socket.herror, OSError),
      issubclass(_socket.gaierror, OSError), _socket.SocketType is _socket.socket, _socket.has_ipv6)
print(socket.AddressFamily.AF_INET, socket.SocketKind.SOCK_STREAM, socket.has_dualstack_ipv6() in (True, False))
wanted = ("AF_", "SOCK_", "SOL_", "SO_", "IPPROTO_", "TCP_", "MSG_", "SHUT_", "AI_", "NI_", "EAI_")
print(sorted({n.split("_")[0] for n in dir(_socket) if n.startswith(wanted)}))
