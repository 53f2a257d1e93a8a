"""Text clean-up and sizes as people read them."""

import pytest

from core.text import clean_paragraphs, clean_text, human_size


def test_clean_text_and_paragraphs():
    assert clean_text("  Cafe\u0301 \t au\x00 lait\n ") == "Café au lait"
    assert clean_paragraphs("one  two\r\n\r\n\r\n\r\nthree\x07") == "one two\n\nthree"
    assert clean_text("🧙\u200d♂️") == "🧙\u200d♂️"  # the zero-width joiner of an emoji sequence is kept
    assert clean_text("Lone \ud800Surrogate") == "Lone Surrogate"  # JSON can carry one; no database can store it


@pytest.mark.parametrize(
    ("size", "shown"),
    [(0, "0 bytes"), (1, "1 byte"), (1023, "1023 bytes"), (1024, "1.0 KB"), (4300, "4.2 KB"), (5 << 20, "5.0 MB")],
)
def test_human_size_reads_as_djangos_filesizeformat_with_a_plain_space(size, shown):
    assert human_size(size) == shown
