"""Jobs and rankings in the API, a module per endpoint group:

- ``stored_jobs``: ``GET|POST /jobs/`` and ``GET|PATCH /jobs/{id}/``, a recruiter's stored jobs;
- ``pipeline``: ``GET|POST /jobs/{id}/pipeline/``, a job's candidates by stage;
- ``description_ranking``: ``POST /jobs/match/``, candidates ranked for a pasted description;
- ``stored_ranking``: ``GET /jobs/{id}/matches/`` and ``GET /candidates/{id}/similar/``, candidates ranked for
  criteria read from the database;
- ``criteria``: what a job asks for, as a request overrides it and as an answer shows it;
- ``ranked_pages``: a ranked page's rows and parameters, and the job fit that orders them (``JOB_FIT_FORMULA``).

A ranked row's ``match`` is the job fit, a weighted sum of fits; the candidate list's ``match`` is the skill match
(``api.candidates.serializers.SKILL_MATCH_HELP``), the mean of the requested skills' scores. Same field name, two
formulas: the schema's descriptions name which."""
