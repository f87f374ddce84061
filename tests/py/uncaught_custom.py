class AppError(Exception):
    pass
def f():
    raise AppError("custom failure")
try:
    f()
except AppError:
    raise KeyError("chained")
