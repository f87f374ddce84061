# Shared data: a word count into one dict. Each thread makes its share of
# SIZE lines of text (12 words each, from a fixed 1000-word vocabulary),
# splits them, and adds each line's words to the shared counts under one
# threading.Lock (counts[w] = counts.get(w, 0) + 1 reads then writes: two
# threads interleaving it lose counts under any interpreter).
# Usage: word_count.py THREADS [SIZE]
import threading

from _threads import args, run_threads, share

SIZE = 60000
WORDS_PER_LINE = 12


def make_vocabulary(n):
    words = []
    x = 12345
    for _ in range(n):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        length = 3 + x % 7
        word = ""
        y = x
        for _ in range(length):
            word += chr(ord("a") + y % 26)
            y //= 26
        words.append(word + str(len(words)))  # the index keeps every word distinct
    return words


def main():
    threads, size = args(SIZE)
    vocabulary = make_vocabulary(1000)
    counts = {}
    lock = threading.Lock()

    def count(k):
        n = len(vocabulary)
        for i in share(k, threads, size):
            line = " ".join(vocabulary[(i * 7919 + j * j * 104729 + i * j) % n]
                            for j in range(WORDS_PER_LINE))
            words = line.split()
            with lock:
                for w in words:
                    counts[w] = counts.get(w, 0) + 1

    run_threads(threads, count)
    rank = {w: r for r, w in enumerate(vocabulary)}
    weighted = sum(c * (rank[w] + 1) for w, c in counts.items())
    print(f"{len(counts)} distinct words, {sum(counts.values())} words, weighted checksum {weighted}")


main()
