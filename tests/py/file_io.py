import os
path = "tmpy_test_file_io.txt"
with open(path, "w") as f:
    f.write("line one\n")
    f.write("line two\n")
    print("third line", file=f)
with open(path) as f:
    print(repr(f.read()))
with open(path) as f:
    print(f.readline().strip(), f.readline().strip(), f.readlines())
with open(path) as f:
    for i, line in enumerate(f):
        print(i, line.rstrip())
with open(path, "a") as f:
    f.write("appended\n")
with open(path) as f:
    lines = f.read().splitlines()
print(lines, len(lines))
with open(path, "rb") as f:
    data = f.read()
print(type(data).__name__, data[:8], len(data))
with open(path, "wb") as f:
    f.write(bytes(range(65, 75)))
with open(path, "rb") as f:
    print(f.read(3), f.read())
print(os.path.exists(path), os.path.getsize(path))
os.remove(path)
print(os.path.exists(path))
try:
    open("definitely_missing_file.txt")
except FileNotFoundError as e:
    print("FileNotFoundError:", e)
f = open(__file__); f.close()
try:
    f.read()
except ValueError as e:
    print(e)
