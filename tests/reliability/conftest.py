"""Reliability tests. Those marked ``reliability`` need minutes and real processes (workers, gunicorn, a private
Redis) and run only with ``--run-reliability`` (``make reliability``); the unmarked ones are quick and belong to the
normal suite. The option and the skipping live in ``tests/conftest.py``: pytest reads command-line options only from
the conftest files of the paths it starts from (``tests``) and their parents.
"""
