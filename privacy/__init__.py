"""Privacy of the people TalentDB holds: where each candidate came from and whether they were told, erasure
that stays erased (suppression records that the import checks), and the audit of it, without personal data.

A layer between the domain (``profiles``) and the apps that fill and read it (``ingestion``, ``exports``): it may read
profiles, never ingestion or exports. Those register what an erasure must also remove of theirs
(``privacy.erasure.erasure_step``), so one ``candidate_erase`` removes a person from everywhere, whoever calls it.
"""
