"""Helpers shared by the tests/py programs (not programs themselves)."""
