# A bytearray used as a FIFO (appends at the end, del b[:n] at the front), then a 10 MB one drained
# 4 KiB at a time: CPython moves the start, so each deletion is O(1).
import time
t=time.process_time()
buf = bytearray()
chunk = b"x" * 65536
total = 0
for i in range(200):
    buf += chunk
    while len(buf) > 1000:
        total += len(buf[:1000])
        del buf[:1000]
print(total, len(buf))
b = bytearray(b"a"*10_000_000)
n=0
while b:
    del b[:4096]; n+=1
print(n, round(time.process_time()-t,2))
