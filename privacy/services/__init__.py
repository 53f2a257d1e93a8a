"""Privacy writes, by what they hold:

- ``sourcing``: sourcing records (the import's), and what an import that refused files of erased people records;
- ``requests``: erasure requests;
- ``erasure``: the erasure itself (the person's identity keys, their suppressions, everything held about them);
- ``mentions``: rows not tied to the person that still name them (the admin log, saved searches, shared identifiers);
- ``repositories``: repositories after an erasure, and the one deletion of unused repositories.

An erasure deletes the person and leaves suppression records (keyed hashes of their identifiers) that the import
checks (``privacy.selectors.suppressed_documents``), so the next file about them is refused instead of bringing them
back. What other apps hold of the person they remove in registered steps (``privacy.erasure``). Every public name is
importable from ``privacy.services`` as before the split.
"""

from privacy.services.erasure import candidate_erase, candidate_identity_keys, erasure_context, erasure_message
from privacy.services.mentions import (
    ERASED_TEXT,
    NEEDLE_MIN_CHARS,
    admin_log_forget,
    admin_log_naming,
    query_names_them,
    saved_searches_naming,
    shared_identifiers_of,
    whole_words_re,
)
from privacy.services.repositories import repositories_delete_unused, repositories_forget, repositories_of_accounts
from privacy.services.requests import erasure_request_create, erasure_request_reject
from privacy.services.sourcing import import_refusals_record, sourcing_records_add, suppressions_widen

__all__ = [
    "ERASED_TEXT",
    "NEEDLE_MIN_CHARS",
    "admin_log_forget",
    "admin_log_naming",
    "candidate_erase",
    "candidate_identity_keys",
    "erasure_context",
    "erasure_message",
    "erasure_request_create",
    "erasure_request_reject",
    "import_refusals_record",
    "query_names_them",
    "repositories_delete_unused",
    "repositories_forget",
    "repositories_of_accounts",
    "saved_searches_naming",
    "shared_identifiers_of",
    "sourcing_records_add",
    "suppressions_widen",
    "whole_words_re",
]
