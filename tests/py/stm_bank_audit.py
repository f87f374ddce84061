# Bank transfers inside `with tm.atomic:` between shared accounts, while
# auditor threads sum every account inside their own atomic blocks: an
# auditor must never see money created or destroyed, and the final balances
# add up. A missing read barrier or a bad rollback shows as a wrong total.
import os
import random
import threading

from support.threads import start_join, switch_point
from support.tm_fallback import tm

SCALE = int(os.environ.get("TMPY_THREAD_SCALE", "1"))
ACCOUNTS = 8
START = 1000
TRANSFERS = 1500 * SCALE
accounts = [START] * ACCOUNTS
history = {"transfers": 0}
bad_audits = []
audits = [0]
done = threading.Event()


def transfer(seed):
    rng = random.Random(seed)
    for _ in range(TRANSFERS):
        a = rng.randrange(ACCOUNTS)
        b = rng.randrange(ACCOUNTS)
        amount = rng.randrange(1, 50)
        with tm.atomic:
            if accounts[a] >= amount:
                accounts[a] -= amount
                switch_point()
                accounts[b] += amount
                history["transfers"] += 1


def audit():
    while not done.is_set():
        with tm.atomic:
            total = sum(accounts)
            audits[0] += 1
        if total != START * ACCOUNTS:
            bad_audits.append(total)


workers = [threading.Thread(target=transfer, args=(s,)) for s in range(4)]
auditors = [threading.Thread(target=audit) for _ in range(2)]
for t in auditors:
    t.daemon = True
    t.start()
start_join(workers)
done.set()
for t in auditors:
    t.join()
print("total", sum(accounts), "expected", START * ACCOUNTS)
print("no negative balance", min(accounts) >= 0)
print("bad audits", bad_audits[:5])
print("audited", audits[0] > 0)
