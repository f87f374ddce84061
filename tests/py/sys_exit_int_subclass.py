# SystemExit whose code is an int subclass (pytest's ExitCode, an IntEnum) exits with its value and prints nothing
import enum


class ExitCode(enum.IntEnum):
    TESTS_FAILED = 3


print("before")
raise SystemExit(ExitCode.TESTS_FAILED)
