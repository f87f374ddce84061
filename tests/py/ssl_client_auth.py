# Client certificates under tmpy's _ssl: a server that requires one (CERT_REQUIRED)
# gets the client's, refuses a client without one, and asks for one after the
# handshake (post_handshake_auth, verify_client_post_handshake); an IP address
# as server_hostname is matched as one. 127.0.0.1, CPython's test certificates.
import ssl, socket, threading, queue
T = "/usr/lib/python3.11/test/"
q = queue.Queue()
l = socket.socket(); l.bind(("127.0.0.1", 0)); l.listen()
def serve(ctx, fn):
    def run():
        c, _ = l.accept()
        try:
            with ctx.wrap_socket(c, server_side=True) as s:
                q.put(fn(s))
        except Exception as e:
            q.put(("server", type(e).__name__, getattr(e, "reason", None)))
    t = threading.Thread(target=run); t.start(); return t
sctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER); sctx.load_cert_chain(T + "keycert3.pem")
sctx.verify_mode = ssl.CERT_REQUIRED; sctx.load_verify_locations(T + "pycacert.pem")
cctx = ssl.create_default_context(cafile=T + "pycacert.pem")
cctx.load_cert_chain(T + "keycertecc.pem")
t = serve(sctx, lambda s: (s.recv(2), s.getpeercert()["subject"][-1], s.version(), len(s.shared_ciphers()) > 0))
with cctx.wrap_socket(socket.create_connection(l.getsockname()), server_hostname="localhost") as s:
    s.sendall(b"hi"); print("client", s.shared_ciphers())
t.join(); print(q.get())
# no client cert -> server fails
cctx2 = ssl.create_default_context(cafile=T + "pycacert.pem")
t = serve(sctx, lambda s: s.recv(2))   # fails in its handshake: it never reads
try:
    with cctx2.wrap_socket(socket.create_connection(l.getsockname()), server_hostname="localhost") as s:
        print("recv", s.recv(2))   # no write first: the server's close then never resets it
except Exception as e:
    print("client", type(e).__name__, getattr(e, "reason", None))
t.join(); print(q.get())
# post-handshake auth
sctx3 = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER); sctx3.load_cert_chain(T + "keycert3.pem")
sctx3.verify_mode = ssl.CERT_REQUIRED; sctx3.load_verify_locations(T + "pycacert.pem"); sctx3.post_handshake_auth = True
cctx.post_handshake_auth = True
def pha(s):
    before = s.getpeercert()
    s.recv(2)
    s.verify_client_post_handshake()
    s.sendall(b"ok")
    s.recv(2)
    return ("pha", before, s.getpeercert()["subject"][-1])
t = serve(sctx3, pha)
with cctx.wrap_socket(socket.create_connection(l.getsockname()), server_hostname="localhost") as s:
    s.sendall(b"hi"); print("client got", s.recv(2)); s.sendall(b"zz")
t.join(); print(q.get())
# ip address hostname
sctx4 = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER); sctx4.load_cert_chain(T + "keycert3.pem")
t = serve(sctx4, lambda s: None)
try:
    cctx2.wrap_socket(socket.create_connection(l.getsockname()), server_hostname="127.0.0.1")
except ssl.SSLCertVerificationError as e:
    print(e.verify_message)
t.join(); q.get()
print(sctx.get_ca_certs()[0]["subject"][-1], cctx.session_stats()["connect_good"] >= 2)
