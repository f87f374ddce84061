"""Runs one of CPython's test modules with CPython's unittest under the
interpreter that runs this file, and appends one line per test to the
result file: "<outcome> <test id>" (outcome: pass, fail, error, skip, xfail,
xpass). A line is written as each test ends, so a crash or a hang keeps
what ran before it. Usage: driver.py MODULE RESULT_FILE

Everything runs under `if __name__ == "__main__"`: multiprocessing's spawn
start method runs the parent's main file again in each child (as
__mp_main__, with the parent's sys.argv), which without the guard ran the
whole module again there and truncated the result file."""
import os
import sys
import unittest

# Both interpreters run the same test files: the reference python3 may have
# its own (newer) copy of the test package (spawned children need it too).
import test  # noqa: E402
test.__path__[:] = [os.environ.get("TMPY_CPYTHON_TESTDIR", "/usr/lib/python3.11/test")]

out = None   # the result file (main)


def note(outcome, test):
    out.write(f"{outcome} {test.id()}\n")
    out.flush()


class Recorder(unittest.TestResult):
    def addSuccess(self, test):
        note("pass", test)

    def addFailure(self, test, err):
        note("fail", test)

    def addError(self, test, err):
        # an error in setUpClass/setUpModule comes with a placeholder test
        note("error", test)

    def addSkip(self, test, reason):
        note("skip", test)

    def addExpectedFailure(self, test, err):
        note("xfail", test)

    def addUnexpectedSuccess(self, test):
        note("xpass", test)

    def addSubTest(self, test, subtest, err):
        # a failing subtest fails its test
        if err is not None:
            note("fail", test)


def read_hangs():
    """{test id: reason} from hangs.txt: tests that never end under tmpy because they count on
    CPython's reference counts (an object freed, and its weakref callback run, the moment the last
    reference goes); they are not run there (a hang would cost every test after it) and count as lost."""
    hangs = {}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hangs.txt")
    with open(path, encoding="utf-8") as f:
        for line in f:
            test, _, reason = line.partition("#")
            if test.strip():
                hangs[test.strip()] = reason.strip()
    return hangs


def skip_hangs(suite, hangs):
    for t in suite:
        if isinstance(t, unittest.TestSuite):
            skip_hangs(t, hangs)
        elif t.id() in hangs:
            reason = "hangs without reference counting: " + hangs[t.id()]
            setattr(t, t._testMethodName, lambda t=t: t.skipTest(reason))


def main():
    global out
    module_name, result_path = sys.argv[1], sys.argv[2]
    out = open(result_path, "w", encoding="utf-8")
    try:
        __import__(module_name)
        module = sys.modules[module_name]
        suite = unittest.TestLoader().loadTestsFromModule(module)   # honours load_tests (doctests)
    except BaseException as e:  # the module does not import: no test runs
        out.write(f"import-error {module_name} {type(e).__name__}: {e}\n".replace("\n", " ").rstrip() + "\n")
        out.close()
        sys.exit(0)
    if sys.implementation.name != "cpython":
        skip_hangs(suite, read_hangs())
    suite.run(Recorder())
    out.write("done\n")
    out.close()


if __name__ == "__main__":
    main()
