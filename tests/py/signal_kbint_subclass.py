# Only KeyboardInterrupt itself ends the process by SIGINT: a subclass
# uncaught exits with status 1, as CPython.
import atexit

atexit.register(print, "atexit ran")


class Interrupted(KeyboardInterrupt):
    pass


raise Interrupted("stop")
