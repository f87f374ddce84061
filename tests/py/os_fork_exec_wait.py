# Processes through CPython's os.py over tmpy's posix: fork, _exit,
# waitpid and the wait-status functions, signals to a child, exec in a
# child, a pipe between parent and child, register_at_fork.
import os
import signal
import sys

calls = []
os.register_at_fork(before=lambda: calls.append('before'), after_in_parent=lambda: calls.append('parent'),
                    after_in_child=lambda: calls.append('child'))

# exit codes through waitpid
for code in (0, 7):
    pid = os.fork()
    if pid == 0:
        os._exit(code)
    wpid, status = os.waitpid(pid, 0)
    print('exit', code, wpid == pid, os.WIFEXITED(status), os.WEXITSTATUS(status), os.WIFSIGNALED(status),
          os.waitstatus_to_exitcode(status))
print('hooks', calls)

# the child computes, sends the result through a pipe
r, w = os.pipe()
pid = os.fork()
if pid == 0:
    os.close(r)
    data = ','.join(str(i * i) for i in range(10)) + ' ' + ','.join(calls)
    os.write(w, data.encode())
    os._exit(0)
os.close(w)
chunks = []
while True:
    b = os.read(r, 4)
    if not b:
        break
    chunks.append(b)
os.close(r)
print('from child', b''.join(chunks).decode())
print('status', os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))

# a child killed by a signal; WNOHANG before it ends
r, w = os.pipe()
pid = os.fork()
if pid == 0:
    os.close(w)
    os.read(r, 1)   # waits until the parent closes its end
    os._exit(0)
os.close(r)
print('WNOHANG', os.waitpid(pid, os.WNOHANG))
os.kill(pid, signal.SIGTERM)
_, status = os.waitpid(pid, 0)
os.close(w)
print('signalled', os.WIFSIGNALED(status), os.WTERMSIG(status) == signal.SIGTERM, os.WIFEXITED(status),
      os.waitstatus_to_exitcode(status) == -signal.SIGTERM)

# exec in the child, its output through a pipe on fd 1
r, w = os.pipe()
pid = os.fork()
if pid == 0:
    os.dup2(w, 1)
    os.execv('/bin/sh', ['sh', '-c', 'echo exec works; exit 5'])
os.close(w)
out = b''
while True:
    b = os.read(r, 100)
    if not b:
        break
    out += b
os.close(r)
print('exec', out, os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))

pid = os.fork()
if pid == 0:
    os.execve('/bin/sh', ['sh', '-c', 'exit $((CODE + 1))'], {'CODE': '41'})
print('execve env', os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))

# errors
for label, f in [('execv empty', lambda: os.execv('/bin/true', [])),
                 ('execv empty first', lambda: os.execv('/bin/true', [''])),
                 ('execv missing', lambda: os.execv('/nonexistent', ['x'])),
                 ('execve missing', lambda: os.execve('/nonexistent', ['x'], {})),
                 ('waitpid none', lambda: os.waitpid(-1, 0)),
                 ('kill missing', lambda: os.kill(2**22 + 12345, 0)),
                 ('exitcode stopped', lambda: os.waitstatus_to_exitcode(0x137f)),
                 ('register nothing', lambda: os.register_at_fork()),
                 ('register not callable', lambda: os.register_at_fork(before=1))]:
    try:
        f()
    except Exception as e:
        print(label, '->', type(e).__name__, e)
print(os.WIFSTOPPED(0x137f), os.WSTOPSIG(0x137f), os.WCOREDUMP(0x86), os.WIFCONTINUED(0xffff))
print(os.system('exit 3') >> 8, os.waitstatus_to_exitcode(os.system('true')))
