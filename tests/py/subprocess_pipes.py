# subprocess (CPython's) over _posixsubprocess.fork_exec, select's poll and
# os.pipe/waitpid: run with capture, Popen with pipes, return codes, errors.
import os
import subprocess
import sys

r = subprocess.run(['echo', 'hello'], capture_output=True)
print(r.returncode, r.stdout, r.stderr, r.args)
r = subprocess.run(['sh', '-c', 'echo out; echo err >&2; exit 3'], capture_output=True, text=True)
print(r.returncode, repr(r.stdout), repr(r.stderr))
r = subprocess.run(['sh', '-c', 'echo both >&2'], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
print('stderr into stdout', r.stdout)
r = subprocess.run(['sh', '-c', 'kill -TERM $$'])
print('killed', r.returncode)
print(subprocess.run(['cat'], input=b'fed through stdin', capture_output=True).stdout)
print(subprocess.run(['tr', 'a-z', 'A-Z'], input='text mode\n', capture_output=True, text=True).stdout)

# Popen with pipes on all three, communicate() with more than a pipe holds
p = subprocess.Popen(['sh', '-c', 'cat; echo done >&2'], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE)
big = b''.join(b'line %d\n' % i for i in range(20000))
out, err = p.communicate(big)
print('communicate', p.returncode, len(out) == len(big), out == big, err)

# reading a child's stdout as it goes
p = subprocess.Popen(['sh', '-c', 'for i in 1 2 3; do echo $i; done'], stdout=subprocess.PIPE, text=True)
print('lines', [line.strip() for line in p.stdout])
print('wait', p.wait(), p.returncode, p.poll())
p.stdout.close()

# cwd, env, pass_fds, close_fds
with subprocess.Popen(['pwd'], cwd='/', stdout=subprocess.PIPE) as p:
    print('cwd', p.stdout.read())
print('env', subprocess.run(['sh', '-c', 'echo $ONLY_VAR'], env={'ONLY_VAR': 'x1', 'PATH': os.environ['PATH']},
                            capture_output=True).stdout)
rfd, wfd = os.pipe()
subprocess.run(['sh', '-c', 'echo passed >&%d' % wfd], pass_fds=[wfd])
os.close(wfd)
print('pass_fds', os.read(rfd, 100))
os.close(rfd)
rfd, wfd = os.pipe()
r = subprocess.run(['sh', '-c', 'echo leaked >&%d' % wfd], stderr=subprocess.DEVNULL)
os.close(wfd)
print('not inherited', r.returncode != 0, os.read(rfd, 100))
os.close(rfd)

# the interpreter itself as a child
r = subprocess.run([sys.executable, '-c', 'import sys; print(sys.argv[1:]); sys.exit(4)', 'a', 'b'],
                   capture_output=True, text=True)
print('python child', r.returncode, r.stdout)

# errors
for label, f in [('missing program', lambda: subprocess.run(['/nonexistent/program'])),
                 ('missing cwd', lambda: subprocess.run(['true'], cwd='/nonexistent/dir')),
                 ('not executable', lambda: subprocess.run(['/etc/hostname'])),
                 ('check', lambda: subprocess.check_call(['false'])),
                 ('check_output', lambda: subprocess.check_output(['sh', '-c', 'echo partial; exit 2'])),
                 ('timeout', lambda: subprocess.run(['sleep', '5'], timeout=0.2))]:
    try:
        f()
    except subprocess.TimeoutExpired as e:
        print(label, '->', type(e).__name__, e.cmd)
    except (OSError, subprocess.SubprocessError) as e:
        print(label, '->', type(e).__name__, e)
print(subprocess.getoutput('echo via shell'), subprocess.getstatusoutput('exit 9'))
print(subprocess.check_output('echo $((6 * 7))', shell=True))
print(subprocess.call(['true']), subprocess.call(['false']))
