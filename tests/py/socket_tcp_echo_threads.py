# CPython's socket.py over tmpy's _socket: a TCP echo server in one thread,
# clients in others, on 127.0.0.1 with a port the system picks; makefile()
# reads lines through _io.
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
import threading

srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
print("reuseaddr", srv.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR) != 0)
srv.bind(("127.0.0.1", 0))
srv.listen(8)
host, port = srv.getsockname()
print("bound", host, 0 < port < 65536, srv.family, srv.type)

NCLIENTS = 3

def serve():
    for _ in range(NCLIENTS):
        conn, addr = srv.accept()
        with conn:
            assert addr[0] == "127.0.0.1"
            while True:
                data = conn.recv(7)   # small pieces: the client's lines arrive split
                if not data:
                    break
                conn.sendall(data.upper())

server = threading.Thread(target=serve)
server.start()

results = {}

def client(k):
    with socket.create_connection(("127.0.0.1", port), timeout=10) as c:
        lines = [f"client {k} line {i}\n" for i in range(20)]
        c.sendall("".join(lines).encode())
        c.shutdown(socket.SHUT_WR)
        got = b""
        while True:
            piece = c.recv(1024)
            if not piece:
                break
            got += piece
        results[k] = got.decode().splitlines()

for k in range(NCLIENTS):   # one after another: the server serves them in order
    t = threading.Thread(target=client, args=(k,))
    t.start()
    t.join()
server.join()
srv.close()
for k in sorted(results):
    print(k, len(results[k]), results[k][0], results[k][-1])

# makefile: a reader and a writer over a connected pair
srv = socket.create_server(("127.0.0.1", 0))
port = srv.getsockname()[1]
cli = socket.create_connection(("127.0.0.1", port))
conn, _ = srv.accept()
w = conn.makefile("w", encoding="utf-8")
r = cli.makefile("r", encoding="utf-8")
for i in range(5):
    w.write(f"line {i} \u00e9\n")
w.flush()
w.close()
conn.close()
print(r.readline(), end="")
print(r.readlines())
r.close()
print("closed", cli._closed, cli.fileno() >= 0)
cli.close()
print("after close", cli.fileno(), cli._closed)
srv.close()
print(repr(srv).startswith("<socket.socket [closed]"))
