def dumps(o, indent=0):
    pad = "  " * indent
    if isinstance(o, dict):
        if not o:
            return "{}"
        items = [f'{pad}  "{k}": {dumps(v, indent + 1)}' for k, v in o.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(o, (list, tuple)):
        return "[" + ", ".join(dumps(v, indent) for v in o) + "]"
    if isinstance(o, str):
        return '"' + o.replace('"', '\\"') + '"'
    if o is None:
        return "null"
    if isinstance(o, bool):
        return "true" if o else "false"
    return repr(o)
data = {"name": "tmpy", "version": [0, 1], "stable": False, "deps": None, "ratio": 1.5, "nested": {"a": {"b": []}, "q": 'say "hi"'}}
print(dumps(data))
