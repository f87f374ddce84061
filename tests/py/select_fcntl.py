# tmpy's native select (select, poll) and fcntl modules.
import fcntl
import os
import select
import selectors
import tempfile

r, w = os.pipe()
print('nothing ready', select.select([r], [], [], 0))
print('writable', select.select([], [w], [], 0) == ([], [w], []))
os.write(w, b'x')
print('readable', select.select([r], [w], [], 1.5) == ([r], [w], []))


class FileLike:
    def __init__(self, fd):
        self.fd = fd

    def fileno(self):
        return self.fd


fl = FileLike(r)
print('fileno objects', select.select([fl], [], [], None)[0] == [fl])
for label, args in [('negative timeout', ([r], [], [], -1)), ('bad timeout', ([r], [], [], 'x')),
                    ('bad object', (['x'], [], []))]:
    try:
        select.select(*args)
    except (ValueError, TypeError, OSError) as e:
        print(label, '->', type(e).__name__, e)

p = select.poll()
p.register(r, select.POLLIN)
p.register(w, select.POLLOUT)
print('poll', sorted((fd - r, ev) for fd, ev in p.poll(0)))
os.read(r, 1)
print('poll after read', sorted((fd - r, ev) for fd, ev in p.poll(0)))
p.modify(w, select.POLLIN)
print('poll modified', p.poll(10))
p.unregister(w)
try:
    p.unregister(w)
except KeyError as e:
    print('unregister twice -> KeyError', e.args == (w,))
try:
    p.modify(w, select.POLLIN)
except OSError as e:
    print('modify unregistered ->', type(e).__name__, e.errno)
os.close(w)
print('hangup', p.poll(100) == [(r, select.POLLHUP)])
os.close(r)
closed, w = os.pipe()
os.close(closed)
try:
    select.select([closed], [], [], 0)
except OSError as e:
    print('closed fd ->', type(e).__name__, e)
os.close(w)
print(select.POLLIN, select.POLLOUT, select.POLLHUP, select.error is OSError)

# selectors' default is a PollSelector here (no epoll)
r, w = os.pipe()
with selectors.DefaultSelector() as sel:
    sel.register(r, selectors.EVENT_READ, data='reader')
    print('selector empty', sel.select(timeout=0))
    os.write(w, b'y')
    print('selector ready', [(k.data, ev) for k, ev in sel.select(timeout=1)])
os.close(r)
os.close(w)

# fcntl
r, w = os.pipe()
flags = fcntl.fcntl(r, fcntl.F_GETFL)
print('nonblock before', bool(flags & os.O_NONBLOCK))
fcntl.fcntl(r, fcntl.F_SETFL, flags | os.O_NONBLOCK)
print('nonblock after', bool(fcntl.fcntl(r, fcntl.F_GETFL) & os.O_NONBLOCK), os.get_blocking(r))
print('cloexec', fcntl.fcntl(w, fcntl.F_GETFD) & fcntl.FD_CLOEXEC == fcntl.FD_CLOEXEC)
d = fcntl.fcntl(w, fcntl.F_DUPFD_CLOEXEC, 100)
print('dupfd', d >= 100)
os.close(d)
try:
    fcntl.fcntl(999, fcntl.F_GETFD)
except OSError as e:
    print('bad fd ->', type(e).__name__, e)
os.close(r)
os.close(w)
with tempfile.TemporaryDirectory() as tmp:
    with open(os.path.join(tmp, 'lock'), 'w') as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        fcntl.flock(f.fileno(), fcntl.LOCK_UN)
        fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fcntl.lockf(f, fcntl.LOCK_UN)
        print('locks taken and released')
print(fcntl.LOCK_EX, fcntl.LOCK_NB, fcntl.F_SETFL, fcntl.F_GETFD)
