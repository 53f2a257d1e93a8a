"""gunicorn's configuration for the web app: ``gunicorn -c gunicorn.conf.py`` (docker-compose.yml, bench/load.py).

https://docs.gunicorn.org/en/stable/settings.html. Every value can be changed from the environment; a command-line
option (``--bind``, ``--workers``) wins over this file.

The web app runs behind nginx (deploy/nginx/), which reads each request's headers and body in full, and buffers
each answer, before gunicorn sees them: slow clients cost nginx a socket each, not a gunicorn worker (issue 15, hole 5:
eight sockets sending their headers a byte at a time held every sync worker for a minute). The workers are threaded
(gthread) too, so that a long request (an export streaming for minutes) holds one thread, not a whole worker, and
``/healthz`` and the API are answered by the other threads meanwhile.
"""

import os

wsgi_app = "talentdb.wsgi:application"
bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
# Processes x threads requests run at once. Processes use the cores (the GIL); threads wait on the database.
workers = int(os.environ.get("WEB_CONCURRENCY", "4"))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "8"))
# A threaded worker answers the arbiter's heartbeat from its main thread, whatever its requests do: this kills only a
# worker that is really stuck, not a long export (a sync worker was killed at 30 s in mid-export, issue 15, hole 4).
# The web's database statements are stopped after DATABASE_WEB_STATEMENT_TIMEOUT_SECONDS (talentdb/wsgi.py).
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "120"))
graceful_timeout = 30
# nginx keeps its connections to gunicorn open (its upstream keepalive): longer than nginx's own idle timeout there.
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "75"))
# "-": standard output; empty: no access log (bench/load.py, where a line per request would cost the server).
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
