# A signal interrupts a regex that backtracks for ever: the engine checks for
# signals as it runs, the handler's exception comes out of match/search/sub,
# and the engine works normally afterwards (its C stacks freed, the subject
# read again after the handler ran Python code).
import re
import signal


class Timeout(Exception):
    pass


calls = []


def handler(signum, frame):
    # allocates, so objects may move under the engine; only the third call
    # raises: the engine goes on after the first two with what moved
    garbage = [str(i) * 3 for i in range(2000)]
    calls.append(len(garbage))
    if len(calls) % 3 == 0:
        raise Timeout(len(calls))
    # one-shot timer, re-armed when the handler is done: a repeating one
    # could fire inside a slow handler (move mode on a loaded machine) and
    # nest handlers until RecursionError
    signal.setitimer(signal.ITIMER_REAL, 0.03)


signal.signal(signal.SIGALRM, handler)
subject = 'x' * 40 + 'é'   # not ASCII: the engine reads a decoded copy
for name, call in [('match', lambda: re.match(r'(x+x+)+y', subject)),
                   ('search', lambda: re.search(r'(?:x|xx)+y', subject)),
                   ('sub', lambda: re.sub(r'(x+x+)+y', '-', subject))]:
    signal.setitimer(signal.ITIMER_REAL, 0.03)
    try:
        call()
        print(name, 'finished')
    except Timeout as e:
        print(name, 'interrupted', e)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
print(re.match(r'(x+x+)+é', subject).span(), re.sub(r'x{10}', '-', subject))
