"""``X-Search-Backend``: which backend ranked the request, so an operator sees a fallback from the outside as well as
in the log (searchindex.backend sets it): ``index``, or ``sql; index=<code>`` when the index could not (``stopped``,
``building``, ``behind``, ``error``, ``filtered``, ``count``, ``strict``, ``text``).
The details are logged, never sent."""

import contextvars

HEADER = "X-Search-Backend"

# Which backend answered the request being served.
answered_by: contextvars.ContextVar[str] = contextvars.ContextVar("search_backend_answered_by", default="")


class SearchBackendHeaderMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = answered_by.set("")
        try:
            response = self.get_response(request)
            if value := answered_by.get():
                response[HEADER] = value
            return response
        finally:
            answered_by.reset(token)
