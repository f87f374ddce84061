a = 'simple' "double"
b = '''triple
quoted''' """another
one"""
c = r'\d+\s*' R"\w" rb'\x00' Br'\n' b'\x41\x42' u'unicode é'
d = '\x41\101\u00e9\U0001F600\n\t\\\'\"\a\b\f\v\0'
e = f'{a}' F"{b!r}" rf'{c}\n' fR"{d:>10}" f'''{a
+ b}'''
f = f"{a:{b}.{c}}" f'{x=!s:^20}' f"{'nested' + f'{a}'}" f'{{braces}}'
g = 'concat' f'{mix}' 'ed'
h = "\
continued"
i = ''
j = f''
k = b''
