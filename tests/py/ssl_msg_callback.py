# SSLContext._msg_callback under tmpy's _ssl: OpenSSL reports every TLS
# message and record header of a TLS 1.2 and a TLS 1.3 handshake to Python
# (tmpy leaves the blocking region for each call); what the callback raises
# comes out of the handshake. 127.0.0.1 only, CPython's test certificates.
import socket
import ssl
import threading

T = "/usr/lib/python3.11/test/"
sctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
sctx.load_cert_chain(T + "keycert3.pem")
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen()


def serve(n):
    for i in range(n):
        c, _ = listener.accept()
        try:
            with sctx.wrap_socket(c, server_side=True) as s:
                if i < 2:   # the third client raises out of its handshake and never writes
                    s.sendall(s.recv(2))
        except (ssl.SSLError, OSError):
            c.close()


t = threading.Thread(target=serve, args=(3,))
t.start()
for version in (ssl.TLSVersion.TLSv1_2, ssl.TLSVersion.TLSv1_3):
    seen = set()
    kinds = set()

    def cb(conn, direction, v, content_type, msg_type, data):
        kinds.add((type(conn).__name__, type(data).__name__))
        seen.add((direction, str(content_type), str(msg_type)))

    cctx = ssl.create_default_context(cafile=T + "pycacert.pem")
    cctx.maximum_version = version
    cctx._msg_callback = cb
    print("callback", cctx._msg_callback is cb)
    with cctx.wrap_socket(socket.create_connection(listener.getsockname()), server_hostname="localhost") as s:
        s.sendall(b"hi")
        s.recv(2)
    print(version.name, sorted(kinds))
    for item in sorted(seen):
        if "HEADER" not in item[1]:
            print("  ", *item)


def raising(conn, direction, v, content_type, msg_type, data):
    raise KeyError("from the callback")


cctx = ssl.create_default_context(cafile=T + "pycacert.pem")
cctx._msg_callback = raising
try:
    cctx.wrap_socket(socket.create_connection(listener.getsockname()), server_hostname="localhost")
except KeyError as e:
    print("KeyError", e)
t.join()
listener.close()
cctx._msg_callback = None
print("cleared", cctx._msg_callback)
