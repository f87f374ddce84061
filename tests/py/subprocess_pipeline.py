# subprocess: a pipeline of two processes (the interpreter itself and sort), run(), check_output, an error
import subprocess
import sys

p1 = subprocess.Popen([sys.executable, "-c", "for w in ['pear', 'apple', 'fig']: print(w)"],
                      stdout=subprocess.PIPE)
p2 = subprocess.Popen(["sort"], stdin=p1.stdout, stdout=subprocess.PIPE, text=True)
p1.stdout.close()
out, _ = p2.communicate(timeout=30)
print(out.split(), p1.wait(), p2.returncode)
r = subprocess.run([sys.executable, "-c", "import sys; print(sys.argv[1:]); sys.exit(3)", "a", "b"],
                   capture_output=True, text=True)
print(r.returncode, r.stdout.strip())
print(subprocess.check_output("echo $((6 * 7))", shell=True, text=True).strip())
try:
    subprocess.check_call([sys.executable, "-c", "raise SystemExit(2)"])
except subprocess.CalledProcessError as e:
    print("CalledProcessError", e.returncode)
