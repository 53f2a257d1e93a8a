"""A plain library under the Django apps: pure helpers (text, labels, countries, languages, dates, topics) and the
application error type. Nothing here imports Django or any app of the project."""
