# Shared data, read only: one settings object whose attributes every thread
# reads on every iteration (nobody writes them while the threads run).
# Usage: shared_object_attr_reads.py THREADS [SIZE]; SIZE iterations in all.
from _threads import args, run_threads, share

SIZE = 6000000


class Settings:
    def __init__(self):
        self.enabled = True
        self.scale = 3
        self.offset = 7
        self.modulus = 1000003


def main():
    threads, size = args(SIZE)
    settings = Settings()

    def compute(k):
        total = 0
        for i in share(k, threads, size):
            if settings.enabled:
                total += (i * settings.scale + settings.offset) % settings.modulus
        return total

    totals = run_threads(threads, compute)
    print(f"checksum {sum(totals)}")


main()
