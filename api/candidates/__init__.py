"""Candidates in the API: ``views`` (``GET /candidates/`` and ``GET /candidates/{id}/``), ``serializers`` (their
shapes) and ``fields`` (what those shapes share with the ranked pages' rows). A search's streamed exports are
``api.exports``'; a candidate's similar candidates are ranked in ``api.jobs.stored_ranking``."""
