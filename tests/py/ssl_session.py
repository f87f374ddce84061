# TLS session resumption under tmpy's _ssl: a client keeps the SSLSession
# of a first TLS 1.3 connection (its ticket arrives with the first read)
# and resumes it on new connections of the same context (session= and the
# session attribute); the server sees session_reused. 127.0.0.1 only, with
# the certificates of CPython's test package.
import queue
import socket
import ssl
import threading

T = "/usr/lib/python3.11/test/"
sctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
sctx.load_cert_chain(T + "keycert3.pem")
cctx = ssl.create_default_context(cafile=T + "pycacert.pem")
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen()
seen = queue.Queue()


def serve(n):
    for _ in range(n):
        c, _ = listener.accept()
        with sctx.wrap_socket(c, server_side=True) as s:
            s.sendall(s.recv(5))
            seen.put((s.session is not None, s.session_reused))


t = threading.Thread(target=serve, args=(3,))
t.start()
with cctx.wrap_socket(socket.create_connection(listener.getsockname()), server_hostname="localhost") as s:
    print("before", s.session_reused)
    s.sendall(b"hello")
    s.recv(5)
    sess = s.session
    print("session", type(sess).__name__, len(sess.id) > 0, sess.has_ticket, sess.timeout > 0,
          sess.ticket_lifetime_hint, sess.time > 0, sess == s.session, sess != s.session)
print("server", *seen.get())
with cctx.wrap_socket(socket.create_connection(listener.getsockname()), server_hostname="localhost",
                      session=sess) as s:
    s.sendall(b"again")
    s.recv(5)
    print("resumed", s.session_reused)
print("server", *seen.get())
s = cctx.wrap_socket(socket.socket(), server_hostname="localhost", do_handshake_on_connect=False)
s.session = sess
s.connect(listener.getsockname())
s.do_handshake()
s.sendall(b"third")
s.recv(5)
print("resumed by attribute", s.session_reused)
try:
    s.session = sess
except ValueError as e:
    print("ValueError", e)
try:
    s.session = 5
except TypeError as e:
    print("TypeError", e)
s.close()
t.join()
print("server", *seen.get())
listener.close()
other = ssl.create_default_context(cafile=T + "pycacert.pem")
o = other.wrap_bio(ssl.MemoryBIO(), ssl.MemoryBIO(), server_hostname="localhost")
try:
    o.session = sess
except ValueError as e:
    print("ValueError", e)
server_side = sctx.wrap_bio(ssl.MemoryBIO(), ssl.MemoryBIO(), server_side=True)
print("server before handshake", server_side.session)
