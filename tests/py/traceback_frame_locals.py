# tb_frame.f_locals: a frame the exception left holds the locals it ended with, the frame that
# catches it its live ones (pyparsing's ParseException.explain reads f_locals["self"] this way)
import inspect


class Parser:
    def parse(self, text):
        n = len(text)
        return self.step(text, n)

    def step(self, text, n):
        half = n // 2
        raise ValueError(text[half:])


def names(frame):
    return sorted(k for k in frame.f_locals if not k.startswith("__"))


def catch():
    p = Parser()
    try:
        p.parse("abcdef")
    except ValueError as e:
        tb = e.__traceback__
        print(tb.tb_frame is tb.tb_frame, tb.tb_frame.f_code.co_name)
        caught_in = tb.tb_frame
        seen = []
        while tb:
            f = tb.tb_frame
            seen.append((f.f_code.co_name, names(f), type(f.f_locals.get("self")).__name__))
            tb = tb.tb_next
        for s in seen:
            print(*s)
        later = 1
        print("live", names(caught_in))
        print([fi.function for fi in inspect.getinnerframes(e.__traceback__, 0)])
        step = e.__traceback__.tb_next.tb_next.tb_frame
        print(step.f_locals["half"], step.f_locals["text"], step.f_lineno)
        return e


def raise_in_finally():
    x = 1
    try:
        raise KeyError("k")
    finally:
        x = 2


try:
    raise_in_finally()
except KeyError as e:
    print("finally", e.__traceback__.tb_next.tb_frame.f_locals)

e = catch()
# the frame that caught it has ended normally since
print(type(e.__traceback__.tb_frame.f_locals).__name__)


def gen():
    y = 5
    yield 1
    raise RuntimeError("in generator")


try:
    for _ in gen():
        pass
except RuntimeError as e:
    print("gen frame", e.__traceback__.tb_next.tb_frame.f_code.co_name)
