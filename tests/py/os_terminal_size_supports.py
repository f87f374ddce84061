# os.terminal_size, os.get_terminal_size (not a terminal here: OSError) and the
# os.supports_* sets that shutil and argparse consult.
import os

ts = os.terminal_size((100, 30))
print(ts, ts.columns, ts.lines, tuple(ts), type(ts).__name__)
for fd in (99, -1):
    try:
        os.get_terminal_size(fd)
    except OSError as e:
        print("OSError", e.errno)
print(isinstance(os.supports_dir_fd, set), isinstance(os.supports_fd, set), isinstance(os.supports_follow_symlinks, set))
print(os.stat in os.supports_follow_symlinks, os.stat in os.supports_fd)
