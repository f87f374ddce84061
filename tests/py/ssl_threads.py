# Six TLS connections at once under tmpy's _ssl: a server thread per
# connection echoes reversed, six client threads send 30 messages each on
# 127.0.0.1 (STM: their OpenSSL calls run between vm_blocking_begin/end,
# in parallel), with the certificates of CPython's test package.
import ssl, socket, threading
T = "/usr/lib/python3.11/test/"
sctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER); sctx.load_cert_chain(T + "keycert3.pem")
cctx = ssl.create_default_context(cafile=T + "pycacert.pem")
l = socket.socket(); l.bind(("127.0.0.1", 0)); l.listen(16)
N = 6; ROUNDS = 30
def handle(c):
    with sctx.wrap_socket(c, server_side=True) as s:
        while True:
            d = s.recv(4096)
            if not d: break
            s.sendall(d[::-1])
def acceptor():
    ts = []
    for _ in range(N):
        c, _ = l.accept()
        t = threading.Thread(target=handle, args=(c,)); t.start(); ts.append(t)
    for t in ts: t.join()
a = threading.Thread(target=acceptor); a.start()
results = []
def client(i):
    with cctx.wrap_socket(socket.create_connection(l.getsockname()), server_hostname="localhost") as s:
        ok = 0
        for k in range(ROUNDS):
            msg = (b"%d-%d-" % (i, k)) * 100
            s.sendall(msg)
            got = b""
            while len(got) < len(msg): got += s.recv(65536)
            ok += got == msg[::-1]
        results.append(ok)
cs = [threading.Thread(target=client, args=(i,)) for i in range(N)]
for t in cs: t.start()
for t in cs: t.join()
a.join()
print(sorted(results))
