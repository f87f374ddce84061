# Reads a file (bench/memory.py makes a 200 MB one) in one of two ways and
# prints what it saw, so that every interpreter's output can be compared:
#   chunks: 1 MiB reads of a binary file, each counted and dropped;
#   whole:  one read() of the whole file, then its size and newline count.
# Usage: file_read.py chunks|whole PATH
import sys

CHUNK = 1 << 20


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("chunks", "whole"):
        print("usage: file_read.py chunks|whole PATH", file=sys.stderr)
        sys.exit(2)
    mode, path = sys.argv[1], sys.argv[2]
    total = lines = 0
    with open(path, "rb") as f:
        if mode == "chunks":
            while True:
                chunk = f.read(CHUNK)
                if not chunk:
                    break
                total += len(chunk)
                lines += chunk.count(b"\n")
        else:
            data = f.read()
            total = len(data)
            lines = data.count(b"\n")
    print(f"{mode}: {total} bytes, {lines} lines")


main()
