# The interpreter waits for non-daemon threads at exit: the main thread
# returns while workers still sleep; their output must appear afterwards,
# in a fixed order (each worker waits for the previous one).
import threading
import time

first_done = threading.Event()
second_done = threading.Event()
main_joined = threading.Event()


def late():
    time.sleep(0.2)
    main_joined.wait()
    print("late thread finished")
    first_done.set()


def later():
    first_done.wait()
    # once main has returned, the main thread counts as stopped
    for _ in range(500):
        if not threading.main_thread().is_alive():
            break
        time.sleep(0.01)
    print("later thread finished, main alive:", threading.main_thread().is_alive())
    second_done.set()


def nested_spawner():
    # a non-daemon thread started by a non-daemon thread after main returned
    first_done.wait()
    t = threading.Thread(target=lambda: (second_done.wait(), time.sleep(0.05), print("grandchild finished")))
    t.start()


def join_main():
    # joining the main thread returns once the main thread has finished
    threading.main_thread().join()
    print("joined the main thread")
    main_joined.set()


threading.Thread(target=join_main).start()
threading.Thread(target=late).start()
threading.Thread(target=later).start()
threading.Thread(target=nested_spawner).start()
# a daemon thread that would print after the non-daemon ones never gets to
d = threading.Thread(target=lambda: (threading.Event().wait(), print("daemon printed")), daemon=True)
d.start()
print("main returns")
