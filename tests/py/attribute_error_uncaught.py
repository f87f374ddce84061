class P:
    pass
P().nothing
