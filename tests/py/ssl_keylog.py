# SSLContext.keylog_filename under tmpy's _ssl: a TLS 1.3 connection on
# 127.0.0.1 appends its secrets (NSS key log lines) to the file.
import ssl, socket, threading, os
T = "/usr/lib/python3.11/test/"
import tempfile
p = os.path.join(tempfile.mkdtemp(), "keylog.txt")
sctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER); sctx.load_cert_chain(T + "keycert3.pem")
cctx = ssl.create_default_context(cafile=T + "pycacert.pem")
print(cctx.keylog_filename)
cctx.keylog_filename = p
print(cctx.keylog_filename == p)
l = socket.socket(); l.bind(("127.0.0.1", 0)); l.listen()
def srv():
    c, _ = l.accept()
    with sctx.wrap_socket(c, server_side=True) as s: s.sendall(s.recv(5))
t = threading.Thread(target=srv); t.start()
with cctx.wrap_socket(socket.create_connection(l.getsockname()), server_hostname="localhost") as s:
    s.sendall(b"hello"); print(s.recv(5))
t.join()
lines = open(p).read().splitlines()
print(lines[0], sorted(set(x.split()[0] for x in lines[1:])))
cctx.keylog_filename = None
print(cctx.keylog_filename)
try: cctx.keylog_filename = "/nonexistent/x"
except OSError as e: print(type(e).__name__, e)
os.remove(p)
os.rmdir(os.path.dirname(p))
