"""The glued-topic splitter's English word table (core/data/) and its segmenter, against the pinned wordsegment."""

from __future__ import annotations

import random

import pytest
import wordsegment

from core import topics


def test_the_committed_word_table_is_the_one_the_pinned_wordsegment_builds(tmp_path):
    topics.build_word_table(tmp_path)

    for name in (topics.WORD_TRIE_FILE, topics.WORD_COUNTS_FILE):
        assert (tmp_path / name).read_bytes() == (topics.WORD_TABLE_DIR / name).read_bytes(), (
            f"core/data/{name} is stale: run `manage.py build_word_table` and commit it"
        )


@pytest.fixture(scope="module")
def unigram_segmenter() -> wordsegment.Segmenter:
    """wordsegment's own segmenter on its unigram counts alone, as the splitter used it before."""
    segmenter = wordsegment.Segmenter()
    segmenter.unigrams.update(segmenter.parse(segmenter.UNIGRAMS_FILENAME))
    segmenter.total = segmenter.TOTAL
    segmenter.limit = segmenter.LIMIT
    return segmenter


def _glued_texts() -> list[str]:
    rng = random.Random(14)
    with open(wordsegment.Segmenter.UNIGRAMS_FILENAME, encoding="utf-8") as unigrams:
        common = [line.split("\t")[0] for line, _ in zip(unigrams, range(5000), strict=False)]  # the most frequent
    texts = [
        "",
        "a",
        "thisisatest",
        "servicemeshobservability",
        "machinelearning",
        "kubeflow",
        "blockchainethereum",
        "Data_Science2",
        "İstanbulcafe",
        "realtime",
        "community",
    ]
    texts += ["".join(rng.choice(common) for _ in range(rng.randint(2, 5))) for _ in range(120)]
    texts += ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz01") for _ in range(rng.randint(1, 60))) for _ in range(30)]
    return texts


def test_the_segmenter_reads_every_text_as_wordsegment_does(unigram_segmenter):
    for text in _glued_texts():
        assert topics._segment_words(text) == unigram_segmenter.segment(text), text


def test_a_word_counts_as_in_wordsegments_table(unigram_segmenter):
    for word in ("the", "observability", "kube", "chaine", "zzzzqx", "web", "esl"):
        assert topics.word_count(word) == unigram_segmenter.unigrams.get(word, 0)
