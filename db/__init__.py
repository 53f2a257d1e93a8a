"""Django database plumbing the apps share: cursors, advisory locks, error classes, counts, the read connection.

The layer between ``core`` (a plain library, no Django) and the apps: it imports Django, psycopg and ``core``, never
an app of the project, so every app can use it and none has to copy it.
"""
