"""The ASGI application, for an ASGI server; gunicorn serves talentdb.wsgi."""

import os

from django.core.asgi import get_asgi_application

from talentdb.web import limit_statement_time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "talentdb.settings")
application = get_asgi_application()
limit_statement_time()
