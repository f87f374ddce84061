# code.replace() of co_name, co_qualname, co_filename and co_firstlineno (hypothesis's proxies move
# a function's code to its target's file and line): the lines move with co_firstlineno
import traceback


def target():
    pass


def proxy(x):
    y = x + 1
    raise ValueError(y)


co = proxy.__code__
new = co.replace(co_filename="elsewhere.py", co_firstlineno=co.co_firstlineno + 100,
                 co_name="renamed", co_qualname="Q.renamed")
print(new.co_filename, new.co_firstlineno - co.co_firstlineno, new.co_name, new.co_qualname)
print(new.co_varnames == co.co_varnames, new.co_argcount, co.co_filename == __file__)
proxy.__code__ = new
try:
    proxy(1)
except ValueError as e:
    fs = traceback.extract_tb(e.__traceback__)[-1]
    print(fs.filename, fs.lineno - co.co_firstlineno, fs.name, e)
same = co.replace()
print(same is not co, same.co_name, same.co_firstlineno == co.co_firstlineno)
for bad in ({"co_name": 3}, {"co_firstlineno": "x"}, {"co_bogus": 1}):
    try:
        co.replace(**bad)
    except TypeError as e:
        print(type(e).__name__, e)
