# CPython's ssl.py over tmpy's _ssl (OpenSSL's libssl), all on 127.0.0.1
# with the certificates CPython's test package ships (no network, nothing
# generated): a verified TLS server and client in threads, a failed
# verification, a hostname mismatch, getpeercert(), ALPN, MemoryBIO
# handshakes in one thread (wrap_bio), timeouts, a non-blocking
# SSLWantReadError, unwrap() back to plain text, and http.client's
# HTTPSConnection against http.server.
import http.client
import http.server
import os
import queue
import socket
import ssl
import threading

CERTS = "/usr/lib/python3.11/test/"
CA = CERTS + "pycacert.pem"            # our-ca-server
SIGNED = CERTS + "keycert3.pem"        # localhost, signed by the CA
SELF_SIGNED = CERTS + "keycert.pem"    # localhost, self-signed



def der_of(path):
    """The DER bytes of the first certificate in a PEM file (which may have text before it)."""
    text = open(path).read()
    start = text.index("-----BEGIN CERTIFICATE-----")
    end = text.index("-----END CERTIFICATE-----") + len("-----END CERTIFICATE-----")
    return ssl.PEM_cert_to_DER_cert(text[start:end])


print("import", ssl.HAS_SNI, ssl.HAS_ALPN, ssl.HAS_TLSv1_3, ssl.HAS_NEVER_CHECK_COMMON_NAME)
print("constants", int(ssl.PROTOCOL_TLS_CLIENT), int(ssl.PROTOCOL_TLS_SERVER), int(ssl.CERT_REQUIRED),
      ssl.SSL_ERROR_EOF, int(ssl.TLSVersion.TLSv1_3), ssl.OP_NO_COMPRESSION, ssl.VERIFY_X509_TRUSTED_FIRST)
cctx = ssl.create_default_context(cafile=CA)
print("client context", cctx.protocol.name, cctx.verify_mode.name, cctx.check_hostname,
      cctx.minimum_version.name, cctx.maximum_version.name, bool(cctx.options & ssl.OP_NO_SSLv3),
      cctx.cert_store_stats(), cctx.security_level)
print("ca certs", [c["subject"] for c in cctx.get_ca_certs()])
print("DER", cctx.get_ca_certs(True)[0] == der_of(CA))
sctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
sctx.load_cert_chain(SIGNED)
print("server context", sctx.verify_mode.name, sctx.check_hostname)
print("ciphers", any(c["name"] == "TLS_AES_256_GCM_SHA384" and c["protocol"] == "TLSv1.3"
                     for c in sctx.get_ciphers()))
try:
    cctx.verify_mode = ssl.CERT_NONE
except ValueError as e:
    print("ValueError", e)
try:
    sctx.set_ciphers("NOT-A-CIPHER")
except ssl.SSLError as e:
    print("SSLError", e)
try:
    sctx.load_cert_chain(CERTS + "no-such-file.pem")
except OSError as e:
    print(type(e).__name__, e.errno)
try:
    sctx.load_verify_locations(cadata="not a certificate")
except ssl.SSLError as e:
    print("SSLError", e)

listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(5)
ADDR = listener.getsockname()
server_report = queue.Queue()


def serve_once(ctx, handler):
    """Accept one connection, wrap it server-side, run handler(sslsock)."""
    def run():
        conn, _ = listener.accept()
        try:
            s = ctx.wrap_socket(conn, server_side=True)
        except (ssl.SSLError, OSError) as e:
            conn.close()
            server_report.put(("server handshake", type(e).__name__, getattr(e, "reason", None)))
            return
        try:
            handler(s)
        except Exception as e:
            server_report.put(("server", type(e).__name__, str(e)))
        finally:
            s.close()
    t = threading.Thread(target=run)
    t.start()
    return t


# ---- a verified connection, data both ways ----
def echo_upper(s):
    data = b""
    while not data.endswith(b"\n"):
        chunk = s.recv(1024)
        if not chunk:
            break
        data += chunk
    s.sendall(data.upper())
    server_report.put(("server saw", s.version(), s.getpeercert(), s.selected_alpn_protocol()))


sctx.set_alpn_protocols(["http/1.1"])
t = serve_once(sctx, echo_upper)
cctx.set_alpn_protocols(["h2", "http/1.1"])
with socket.create_connection(ADDR) as raw:
    with cctx.wrap_socket(raw, server_hostname="localhost") as s:
        print("version", s.version(), "cipher", s.cipher()[1], s.cipher()[2] >= 128, "alpn",
              s.selected_alpn_protocol(), "server_side", s.server_side, s.server_hostname)
        cert = s.getpeercert()
        print("subject", cert["subject"])
        print("issuer", cert["issuer"])
        print("san", cert["subjectAltName"], "version", cert["version"], cert["serialNumber"])
        print("dates", cert["notBefore"], cert["notAfter"], ssl.cert_time_to_seconds(cert["notAfter"]))
        print("extensions", cert["OCSP"], cert["caIssuers"], cert["crlDistributionPoints"])
        print("binary", s.getpeercert(binary_form=True) == der_of(SIGNED))
        print("channel binding", len(s.get_channel_binding("tls-unique") or b"") > 0, s.compression())
        payload = b"hello over tls " * 1000 + b"\n"
        s.sendall(payload)
        got = b""
        while len(got) < len(payload):
            chunk = s.recv(65536)
            if not chunk:
                break
            got += chunk
        print("echo", got == payload.upper(), len(got), s.pending())
t.join()
print(*server_report.get())

# ---- verification failures ----
self_ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
self_ctx.load_cert_chain(SELF_SIGNED)
t = serve_once(self_ctx, lambda s: None)
try:
    with socket.create_connection(ADDR) as raw:
        ssl.create_default_context().wrap_socket(raw, server_hostname="localhost")
except ssl.SSLCertVerificationError as e:
    print("verify failed:", isinstance(e, ValueError), isinstance(e, OSError), e.args[0], e.library,
          e.reason, e.verify_code, e.verify_message)
    print(" ", e)
t.join()
print(*server_report.get())

t = serve_once(sctx, lambda s: None)
try:
    with socket.create_connection(ADDR) as raw:
        cctx.wrap_socket(raw, server_hostname="example.org")
except ssl.CertificateError as e:
    print("mismatch:", e.verify_message)
t.join()
server_report.get()

# CERT_NONE accepts the self-signed certificate; getpeercert() is then {}
t = serve_once(self_ctx, lambda s: s.sendall(s.recv(100)[::-1]))
nctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
nctx.check_hostname = False
nctx.verify_mode = ssl.CERT_NONE
with nctx.wrap_socket(socket.create_connection(ADDR)) as s:
    print("unverified", s.getpeercert(), len(s.getpeercert(True)) > 300)
    s.sendall(b"abc")
    print("reply", s.recv(100))
t.join()


# ---- timeouts and a non-blocking read ----
def slow_sender(s):
    s.recv(1)                 # the client's go
    s.sendall(b"late")
    s.recv(1)                 # wait for the client's end


t = serve_once(sctx, slow_sender)
with cctx.wrap_socket(socket.create_connection(ADDR), server_hostname="localhost") as s:
    s.settimeout(0.2)
    try:
        s.recv(10)
    except TimeoutError as e:
        print("TimeoutError", e)
    s.setblocking(False)
    try:
        s.recv(10)
    except ssl.SSLWantReadError as e:
        print("SSLWantReadError", e.args[0], isinstance(e, ssl.SSLError))
    s.setblocking(True)
    s.sendall(b"g")
    print("late data", s.recv(10))
    s.sendall(b"e")
t.join()

# a handshake the peer never answers
conn_c = socket.create_connection(ADDR)
conn_s, _ = listener.accept()
conn_c.settimeout(0.2)
try:
    cctx.wrap_socket(conn_c, server_hostname="localhost")
except TimeoutError as e:
    print("handshake TimeoutError", e)
conn_s.close()
conn_c.close()


# ---- unwrap: TLS, then plain text on the same connection ----
def tls_then_plain(s):
    print_q = s.recv(5)
    plain = s.unwrap()
    server_report.put(("server unwrapped", print_q, plain.recv(5)))
    plain.sendall(b"PLAIN")
    plain.close()


t = serve_once(sctx, tls_then_plain)
s = cctx.wrap_socket(socket.create_connection(ADDR), server_hostname="localhost")
s.sendall(b"crypt")
plain = s.unwrap()
plain.sendall(b"clear")
print("after unwrap", type(plain).__name__, plain.recv(5))
plain.close()
t.join()
print(*server_report.get())

# ---- two SSLObjects over MemoryBIOs, one thread ----
c_in, c_out, s_in, s_out = ssl.MemoryBIO(), ssl.MemoryBIO(), ssl.MemoryBIO(), ssl.MemoryBIO()
client = cctx.wrap_bio(c_in, c_out, server_hostname="localhost")
server = sctx.wrap_bio(s_in, s_out, server_side=True)
print("bio objects", type(client).__name__, client.server_side, server.server_side, client.server_hostname)
try:
    client.do_handshake()
except ssl.SSLWantReadError:
    print("client wants to read; hello bytes", c_out.pending > 0)
rounds = 0
done = {"client": False, "server": False}
while not (done["client"] and done["server"]) and rounds < 10:
    rounds += 1
    s_in.write(c_out.read())
    c_in.write(s_out.read())
    for name, obj in (("client", client), ("server", server)):
        if not done[name]:
            try:
                obj.do_handshake()
                done[name] = True
            except ssl.SSLWantReadError:
                pass
    s_in.write(c_out.read())
    c_in.write(s_out.read())
print("bio handshake", done, rounds <= 4, client.version(), server.version(), client.cipher()[0])
print("bio peer", client.getpeercert()["subject"][-1], server.getpeercert())
client.write(b"through memory")
s_in.write(c_out.read())
print("bio read", server.read(100), server.pending())
try:
    server.read(100)
except ssl.SSLWantReadError as e:
    print("bio SSLWantReadError", e.args[0])
c_in.write_eof()
print("bio eof", c_in.eof, c_in.pending)
try:
    client.read(10)
except ssl.SSLError as e:
    print("bio", type(e).__name__, e.args[0])
try:
    ssl.MemoryBIO().write("str")
except TypeError as e:
    print("TypeError", e)
b = ssl.MemoryBIO()
b.write_eof()
try:
    b.write(b"x")
except ssl.SSLError as e:
    print("SSLError", e)


# ---- http.client over TLS against http.server ----
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = ("path=" + self.path).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


httpd = http.server.HTTPServer(("127.0.0.1", 0), Handler)
httpd.socket = sctx.wrap_socket(httpd.socket, server_side=True)
ht = threading.Thread(target=httpd.handle_request)
ht.start()
conn = http.client.HTTPSConnection("localhost", httpd.server_address[1], context=ssl.create_default_context(cafile=CA))
conn.request("GET", "/tls?q=1")
resp = conn.getresponse()
print("https", resp.status, resp.reason, resp.read())
conn.close()
ht.join()
httpd.server_close()
listener.close()

# ---- module functions ----
import _ssl
d = _ssl._test_decode_cert(CERTS + "allsans.pem")
print("allsans", d["subjectAltName"])
print("txt2obj", ssl._txt2obj("1.3.6.1.5.5.7.3.1"), ssl.Purpose.CLIENT_AUTH.shortname, ssl._nid2obj(13))
print("rand", len(ssl.RAND_bytes(16)), ssl.RAND_status(), ssl.RAND_add(b"x", 0.0))
print("paths", ssl.get_default_verify_paths().openssl_cafile_env)
