# except*'s SyntaxErrors: message and position, as CPython 3.11's.
sources = [
    'try:\n pass\nexcept*:\n pass\n',
    'try:\n pass\nexcept* ValueError:\n pass\nexcept KeyError:\n pass\n',
    'try:\n pass\nexcept KeyError:\n pass\nexcept* ValueError:\n pass\n',
    'try:\n pass\nexcept *ValueError as e:\n pass\n',
    'try:\n pass\nexcept* (ValueError, KeyError) as e:\n pass\n',
    'try:\n pass\nexcept* ValueError, KeyError:\n pass\n',
    'try:\n pass\nexcept *ValueError:\n pass\nfinally:\n pass\n',
    'try:\n pass\nexcept *ValueError:\n pass\nelse:\n pass\n',
    'def f():\n try:\n  pass\n except* ValueError:\n  return 1\n',
    'def f():\n try:\n  pass\n except* ValueError:\n  return\n',
    'for x in y:\n try:\n  pass\n except* ValueError:\n  break\n',
    'for x in y:\n try:\n  pass\n except* ValueError:\n  continue\n',
    'while x:\n try:\n  pass\n except* ValueError:\n  if x:\n   continue\n',
    'try:\n pass\nexcept* ValueError:\n return\n',
    'try:\n pass\nexcept* ValueError:\n break\n',
    'def f():\n try:\n  pass\n except* ValueError:\n  for x in y:\n   return 5\n',
    'def f():\n try:\n  pass\n except* ValueError:\n  def g(): return 1\n  for i in x: break\n  while 1: continue\n  lambda: 1\n',
    'def f():\n try:\n  return 1\n except* ValueError:\n  pass\n finally:\n  return 2\n',
    'def f():\n for x in y:\n  try:\n   break\n  except* ValueError:\n   pass\n  else:\n   continue\n',
    'try:\n pass\nexcept* ValueError:\n pass\nexcept*:\n pass\n',
]
for src in sources:
    try:
        compile(src, 's', 'exec')
        print('ok')
    except SyntaxError as e:
        print(e.msg, e.lineno, e.offset, e.end_lineno, e.end_offset)
