"""searchindex.protocol: the JSON lines between the web processes and the index process."""

import datetime as dt
import subprocess
import sys

from searchindex.backend import FORMULA
from searchindex.protocol import decode_cut, decode_query, encode_cut, encode_query
from searchindex.rank import Cut, Preferred, RankQuery, Required
from tests.fixtures import PROJECT_ROOT


def test_a_query_and_a_cut_come_back_as_they_were_sent():
    query = RankQuery(
        formula=FORMULA,
        required=(Required(7, 5, (9,), 0.6),),
        preferred=(Preferred(8, ()),),
        excluded=(3,),
        topics=("payments",),
        keywords=("platform",),
        min_years=4,
        countries=("DE",),
        place=("DE",),
        strict=False,
        today=dt.date(2026, 12, 2),
        exclude_ids=(11,),
    )
    cut = Cut(limit=51, offset=0, after=(0, 80, 12))

    assert decode_query(encode_query(query)) == query
    assert decode_cut(encode_cut(cut)) == cut


def test_a_web_process_asking_the_index_loads_no_text_engine():
    # The web workers only talk to the index process: tantivy (and the columns' builder) stay in that process.
    code = "import django; django.setup(); import searchindex.client, sys; print('tantivy' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=PROJECT_ROOT, capture_output=True, text=True, check=True, timeout=120
    )

    assert result.stdout.strip() == "False"
