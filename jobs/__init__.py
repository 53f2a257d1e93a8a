"""Jobs: a job description read into criteria (``jobs.criteria``, a pure function), the jobs with their criteria
and pipelines (``jobs.models``, ``jobs.services``), and the ranking of candidates against criteria
(``jobs.ranking``)."""
