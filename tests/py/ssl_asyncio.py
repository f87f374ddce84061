# asyncio's TLS (sslproto over ssl.SSLObject, i.e. _ssl's wrap_bio and
# MemoryBIO) under tmpy: a TLS echo server and client on 127.0.0.1 with the
# certificates of CPython's test package.
import asyncio, ssl
T = "/usr/lib/python3.11/test/"
sctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER); sctx.load_cert_chain(T + "keycert3.pem")
cctx = ssl.create_default_context(cafile=T + "pycacert.pem")
async def handle(r, w):
    data = await r.readline()
    w.write(data.upper()); await w.drain()
    w.close(); await w.wait_closed()
async def main():
    srv = await asyncio.start_server(handle, "127.0.0.1", 0, ssl=sctx)
    port = srv.sockets[0].getsockname()[1]
    r, w = await asyncio.open_connection("127.0.0.1", port, ssl=cctx, server_hostname="localhost")
    print(w.get_extra_info("peercert")["subject"][-1], w.get_extra_info("cipher")[1])
    w.write(b"hello asyncio\n"); await w.drain()
    print(await r.read())
    w.close(); await w.wait_closed()
    srv.close(); await srv.wait_closed()
asyncio.run(main())
