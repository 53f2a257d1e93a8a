"""The WSGI application: gunicorn serves it (gunicorn -c gunicorn.conf.py names talentdb.wsgi:application)."""

import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

from talentdb.web import limit_statement_time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "talentdb.settings")
application = get_wsgi_application()
limit_statement_time()
get_resolver().url_patterns  # noqa: B018 - import every view, serializer and admin module now, not on a request

# What the process has loaded by now lives as long as the process: keep it out of the cyclic GC's full collections,
# which otherwise walk all of it every few hundred requests: a pause long enough to set the API's p99
# (docs/benchmarks.md).
# Frozen objects are still freed by reference counting.
gc.collect()
gc.freeze()
