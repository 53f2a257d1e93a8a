"""Suppression digests: keyed (PRIVACY_HASH_KEY), per kind, and stable."""

import hashlib
import hmac
import os

from django.test import override_settings

from privacy.hashing import identifier_digest, identifier_digests


def test_a_digest_is_the_hmac_sha256_of_kind_and_value_under_the_key():
    with override_settings(PRIVACY_HASH_KEY="k"):
        expected = hmac.new(b"k", b"email\x00tove@example.org", hashlib.sha256).hexdigest()
        assert identifier_digest("email", "tove@example.org") == expected


def test_another_key_gives_other_digests_and_a_plain_hash_is_not_one():
    with override_settings(PRIVACY_HASH_KEY="one"):
        first = identifier_digest("github", "tovelq")
    with override_settings(PRIVACY_HASH_KEY="two"):
        second = identifier_digest("github", "tovelq")
    assert first != second
    assert hashlib.sha256(b"tovelq").hexdigest() not in (first, second)


def test_the_same_value_of_two_kinds_gives_two_digests_and_repeats_go():
    digests = identifier_digests([("github", "tove"), ("gitlab", "tove"), ("github", "tove"), ("url", "")])
    assert [kind for kind, _ in digests] == ["github", "gitlab"]
    assert digests[0][1] != digests[1][1]


def test_the_default_key_is_derived_from_the_secret_key(settings):
    from talentdb import settings as project_settings

    if not os.environ.get("PRIVACY_HASH_KEY"):
        derived = hashlib.sha256(b"talentdb-privacy-hash-key:" + settings.SECRET_KEY.encode()).hexdigest()
        assert derived == project_settings.PRIVACY_HASH_KEY
    assert project_settings.PRIVACY_HASH_KEY != settings.SECRET_KEY
