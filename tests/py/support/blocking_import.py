"""A module whose import blocks until the importer's event is set (tests/py/fork_locks_reinit.py:
a thread inside an import while another thread forks)."""
import builtins

started, release = builtins._blocking_import_events
started.set()
release.wait(30)
VALUE = 42
