match command.split():
    case [action]:
        pass
    case [action, obj]:
        pass
    case ["go", direction] | ["move", direction]:
        pass
    case ["drop", *objects] if objects:
        pass
    case ["north" | "south" | "east" | "west" as d, *_]:
        pass
    case (1, 2, *rest,):
        pass
    case _:
        pass

match point:
    case Point(x=0, y=0):
        print("Origin")
    case Point(0, y) | Point(y, 0):
        print(y)
    case Point(x=x, y=y) as p if x == y:
        print(p)
    case mod.sub.Point(1, 2, z=3):
        pass
    case Point():
        pass

match config:
    case {"action": "go", "target": Color.RED | Color.GREEN as target, **rest}:
        pass
    case {1: _, -2: _, 3.5: _, "s" "t": _, b"b": _, None: _, False: _, a.b: [*_]}:
        pass
    case {}:
        pass

match -1, 2:
    case (-1 | 0, 2) | [0, 0]:
        pass
    case [[1, [2, {3: (4, {5: C(6, d=[7])})}]]]:
        pass
    case int(n) | float(n) | str(n) | bytes(n):
        pass
    case None | True | False:
        pass
    case x:
        pass

match = case = _ = 1
match(case)
match[case] = match.case
match * case, match - case

def f(subject):
    match subject:
        case {"k": [v, *_]} if (w := v) > 0:
            return w
        case [*_, last]:
            yield last
        case _:
            return None
