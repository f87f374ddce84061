counter = 0
def bump():
    global counter
    counter += 1
for _ in range(5):
    bump()
print(counter)
def make():
    total = 0
    def add(n):
        nonlocal total
        total += n
        return total
    def get():
        return total
    return add, get
add, get = make(); add(3); add(4); print(get())
def g():
    global newglobal
    newglobal = "created"
g(); print(newglobal)
x = 1
def shadow():
    x = 2
    def inner():
        global x
        x = 3
    inner()
    return x
print(shadow(), x)
