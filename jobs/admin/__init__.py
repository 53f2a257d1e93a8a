"""The jobs pages of the admin, a module per page: ``jobs`` (the list and a job's own page, where ``JobAdmin`` is
registered), ``matches`` (a job's ranked candidates and its criteria chips), ``pipeline`` (the board), ``similar``
(the profile's "Similar candidates" panel, which the site lists in ``talentdb.admin``); ``forms`` and ``common`` hold
what they share."""

from jobs.admin import jobs  # noqa: F401 (registers JobAdmin)
