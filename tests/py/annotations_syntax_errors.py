# SyntaxErrors of annotations: yield/await outside functions, and under
# from __future__ import annotations the expressions an annotation cannot hold.
srcs = ['def f(x: (y := 1)): pass', 'def f(x: (yield)): pass', 'x: (yield) = 1', 'def g():\n x: (yield 1) = 1', 'async def g():\n x: await y = 1', 'def f() -> (await y): pass', 'x: [(y := 1) for a in b]', 'class C:\n  x: (yield)']
for fut in ['', 'from __future__ import annotations\n']:
  for s in srcs:
    try: compile(fut + s, 's', 'exec'); print('ok')
    except SyntaxError as e: print(e.msg, e.lineno, e.offset, e.end_lineno, e.end_offset)
