"""Jobs: a job description read into criteria (``jobs.criteria``, a pure function), and later the jobs themselves,
their pipelines and the ranking of candidates against them (issue 16)."""
