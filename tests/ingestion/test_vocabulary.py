"""The vocabulary read straight from vocabulary files, for tools that run without a database."""

from core.labels import label_key
from ingestion.vocabulary import vocabulary_from_files


def test_vocabulary_from_the_files(full_vocabulary):
    for key in ("python", "machine-learning", "golang", "go", "c-plus-plus", "jupyter-notebook", "c++", "as3"):
        assert key in full_vocabulary, key
    assert all(key == label_key(key) for key in full_vocabulary)


def test_vocabulary_from_a_missing_folder(tmp_path):
    assert vocabulary_from_files(tmp_path / "missing") == frozenset()


def test_vocabulary_from_a_small_folder(tmp_path):
    (tmp_path / "github_topics.txt").write_text("python\nmachine-learning\n", encoding="utf-8")
    (tmp_path / "github_topic_aliases.tsv").write_text("alias\ttopic\ngolang\tgo\n", encoding="utf-8")
    (tmp_path / "linguist_languages.tsv").write_text(
        "name\ttype\taliases\textensions\tgroup\tlinguist_language_id\n"
        "Jupyter Notebook\tmarkup\tIPython Notebook\t.ipynb\t\t185\n",
        encoding="utf-8",
    )
    assert vocabulary_from_files(tmp_path) == frozenset(
        {"python", "machine-learning", "golang", "go", "jupyter-notebook", "ipython-notebook"}
    )
