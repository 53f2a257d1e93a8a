"""Tools for developers, tests and benchmarks, never imported by the product.

``devtools.synthetic`` writes fictional profiles in both formats the product imports, and
``manage.py generate_profiles`` puts them in a folder. It is a Django app only so that the command is found; it has
no models. It may import ``ingestion``, ``profiles`` and ``core``; nothing in them may import it.
"""
