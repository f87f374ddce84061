def f(a, b=1, c):
    print "hello"
    x = (1 2)
    1 = x
    f() = 3
    if x = 1:
        pass
  y = 2
    z = [i for i in range(3)
