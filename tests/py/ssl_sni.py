# SSLContext.sni_callback under tmpy's _ssl: OpenSSL calls it inside the
# server's handshake (tmpy leaves the blocking region for the Python call):
# it sees the server name (or None), may switch the connection to another
# context (another certificate), return an alert, or raise (unraisable, the
# handshake fails). 127.0.0.1 only, CPython's test certificates.
import queue
import socket
import ssl
import sys
import threading

T = "/usr/lib/python3.11/test/"
default = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
default.load_cert_chain(T + "keycert3.pem")      # CN=localhost
other = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
other.load_cert_chain(T + "allsans.pem")         # CN=allsans
calls = []
unraisable = []
sys.unraisablehook = lambda u: unraisable.append((u.exc_type.__name__, u.object is cb, repr(u.object)[:12]))


def cb(sslobj, name, ctx):
    calls.append((type(sslobj).__name__, name, ctx is default))
    if name == "allsans":
        sslobj.context = other
    elif name == "denied.example":
        return ssl.ALERT_DESCRIPTION_ACCESS_DENIED
    elif name == "raise.example":
        1 / 0
    elif name == "wrong.example":
        return "not an int"


default.sni_callback = cb
print("callback set", default.sni_callback is cb)
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen()
seen = queue.Queue()


def serve(n):
    for _ in range(n):
        c, _ = listener.accept()
        try:
            with default.wrap_socket(c, server_side=True) as s:
                seen.put(("served", s.recv(2), s.context is other))
        except ssl.SSLError as e:
            seen.put(("server refused", e.reason))


names = [None, "localhost", "allsans", "denied.example", "raise.example", "wrong.example"]
t = threading.Thread(target=serve, args=(len(names),))
t.start()
cctx = ssl.create_default_context(cafile=T + "pycacert.pem")
cctx.check_hostname = False
for name in names:
    try:
        with cctx.wrap_socket(socket.create_connection(listener.getsockname()), server_hostname=name) as s:
            print(name, "->", s.getpeercert()["subject"][-1][0][1])
            s.sendall(b"hi")
    except ssl.SSLError as e:
        print(name, "-> refused:", e.reason)
    print("  server:", *seen.get())
t.join()
listener.close()
print("calls", calls)
print("unraisable", unraisable)
default.sni_callback = None
print("callback cleared", default.sni_callback)
for bad in (4, "", ssl.create_default_context()):
    try:
        default.sni_callback = bad
    except TypeError as e:
        print("TypeError", e)
