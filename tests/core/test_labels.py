"""The label key every layer agrees on."""

import pytest

from core.labels import label_key


@pytest.mark.parametrize(
    ("label", "key"),
    [
        ("Machine Learning", "machine-learning"),
        ("  C++ ", "c++"),
        ("deep-learning", "deep-learning"),
        ("A \t B", "a-b"),
    ],
)
def test_label_key(label, key):
    assert label_key(label) == key
