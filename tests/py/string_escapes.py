print("tab:\t|", "newline:\\n", "quote:\"'", 'single:\'', "backslash:\\", "\x41\u0042\U00000043", "\101")
print(r"raw\n\t", len(r"\n"), len("\n"), "a\
b", """triple "quoted" 'string'""", '''another''')
s = """line1
line2
    indented"""
print(s, s.count("\n"))
print("adjacent" " literals" ' joined', ("paren"
    "thesized"))
print(repr("\a\b\f\v\0"), repr("\x7f\x80\xa0\xff"), repr("\ud7ff"), "\u00e9" == "é")
print(f"{'nested'!r} {'{'} {{braces}}", rb"raw\bytes", Rb"X", BR"Y", F"up {1}")
