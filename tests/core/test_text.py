"""Text clean-up and sizes as people read them."""

import pytest

from core.text import clean_paragraphs, clean_text, human_size, human_size_against, phone_text


def test_clean_text_and_paragraphs():
    assert clean_text("  Cafe\u0301 \t au\x00 lait\n ") == "Café au lait"
    assert clean_paragraphs("one  two\r\n\r\n\r\n\r\nthree\x07") == "one two\n\nthree"
    assert clean_text("🧙\u200d♂️") == "🧙\u200d♂️"  # the zero-width joiner of an emoji sequence is kept
    assert clean_text("Lone \ud800Surrogate") == "Lone Surrogate"  # JSON can carry one; no database can store it


@pytest.mark.parametrize(
    ("size", "shown"),
    [
        (0, "0 bytes"),
        (1, "1 byte"),
        (1023, "1023 bytes"),
        (1024, "1 KiB"),
        (4300, "4.2 KiB"),
        (5 << 20, "5 MiB"),
        ((5 << 20) + 200_000, "5.2 MiB"),
        (100 << 20, "100 MiB"),
        (3 << 30, "3 GiB"),
        ((1 << 20) - 1, "1 MiB"),  # 1023.999 KiB, rounded up to the next unit
    ],
)
def test_human_size_writes_powers_of_1024_with_their_iec_names_and_no_trailing_zero(size, shown):
    """One unit, written one way: the limits are powers of 1024 (5 MiB per file, 100 MiB per upload), and the README,
    the upload form and the refusals all write them so."""
    assert human_size(size) == shown


def test_sizes_that_would_read_the_same_as_their_limit_are_written_in_bytes():
    assert human_size_against(6 << 20, 5 << 20) == ("6 MiB", "5 MiB")
    assert human_size_against((5 << 20) + 1, 5 << 20) == ("5,242,881 bytes", "5,242,880 bytes")
    assert human_size_against(1001, 1000) == ("1001 bytes", "1000 bytes")


@pytest.mark.parametrize(
    ("written", "stored"),
    [
        ("+44 20 7946 0958", "+44 20 7946 0958"),
        ("  (555)\t010-0199   ext. 4 ", "(555) 010-0199 ext. 4"),
        ("tel:+1-555-010-0199", "+1-555-010-0199"),
        ("n/a", ""),
        ("-", ""),
        ("", ""),
    ],
)
def test_a_phone_is_kept_as_written_with_its_whitespace_tidied_and_no_digit_is_no_phone(written, stored):
    assert phone_text(written) == stored
