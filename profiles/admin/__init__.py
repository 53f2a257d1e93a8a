"""The recruiter admin of the talent domain, one module per feature:

- ``candidates``: the candidate changelist, history and actions;
- ``candidate_form``: the candidate's change form and its inlines;
- ``profile_page``: the candidate's profile, the page a recruiter reads;
- ``duplicates``: merging, "different people" and the possible-duplicates page, with their records;
- ``working_lists``: shortlists and saved searches;
- ``skills``: skills and aliases, repositories, contributions;
- ``sidebar`` and ``changelist``: the changelist's filter inputs and its estimated counts;
- ``streams``: the one way a CSV export leaves the admin (``csv_stream``), which an app above may wrap (the exports
  app holds each stream to the user's limit on concurrent exports);
- ``common``: counted wording, an action's intermediate page, the change permission simple-history's revert form
  lacks, and the pickers without links that edit or delete a shared row (``NoRelatedObjectLinks``).

Admin classes stay thin: the changelist filters through ``profiles.selectors.candidate_search`` (the filter
implementation the API and the exports share), reads go through selectors, and every write is a service call.
Importing this package registers every model (Django's admin autodiscovery imports ``profiles.admin``) but two: the
candidate and shortlist admins, which the apps above extend, are composed with their mixins and registered by the site
(``talentdb.admin``).
"""

from profiles.admin import candidates, duplicates, skills, working_lists

__all__ = ["candidates", "duplicates", "skills", "working_lists"]
