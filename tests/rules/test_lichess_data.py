"""The bundled Lichess games against the figures of the data set's SOURCE.md.

Every number asserted here comes from ``elo_explain/data/SOURCE.md`` (the project's record of
the data set it was given, ``docs/sources.md#lichess-games``) or from Lichess's FAQ on time
controls -- none is taken from the loader's own output. The tests use only the copy shipped
inside the package, so they pass in a clone.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from importlib import resources

import numpy as np
import pytest

from elo_explain import lichess

DATA = resources.files("elo_explain").joinpath("data")


def test_shipped_file_decompresses_to_the_original_bytes():
    # sha256 of lichess_games.csv as published in elo_explain/data/SOURCE.md
    assert (
        hashlib.sha256(lichess.raw_csv()).hexdigest()
        == "38d61cf9ca2b59c5699c16d0e3947b3fd2d38f7b5921adb6bb8749095cf36715"
    )
    assert lichess.ORIGINAL_SHA256 == (
        "38d61cf9ca2b59c5699c16d0e3947b3fd2d38f7b5921adb6bb8749095cf36715"
    )


def test_shipped_file_matches_its_source_md_and_is_small():
    source = DATA.joinpath("SOURCE.md").read_text(encoding="utf-8")
    shipped = DATA.joinpath(lichess.DATA_FILE).read_bytes()
    row = next(line for line in source.splitlines() if "`lichess_games.csv.bz2` (shipped)" in line)
    size, digest = re.findall(r"\|\s*([\d,]+)\s*\|\s*`([0-9a-f]{64})`", row)[0]
    assert hashlib.sha256(shipped).hexdigest() == digest
    assert len(shipped) == int(size.replace(",", ""))
    assert len(shipped) < 300_000  # the brief's size budget for the bundled copy
    # the licence is stated next to the data
    assert "CC0 1.0 Universal" in source


def test_raw_figures():
    g = lichess.load_games(deduplicate=False)
    # SOURCE.md: 20,058 games; 16,155 rated and 3,903 casual
    assert len(g) == 20_058
    assert int(g.rated.sum()) == 16_155
    assert int((~g.rated).sum()) == 3_903
    # SOURCE.md: white won 10,001, black 9,107, 950 draws
    assert int((g.result == 1).sum()) == 10_001
    assert int((g.result == 0).sum()) == 9_107
    assert int((g.result == 0.5).sum()) == 950
    # SOURCE.md: 400 distinct time controls, 10+0 the most common
    counts = Counter(g.time_control.tolist())
    assert len(counts) == 400
    assert counts.most_common(1)[0][0] == "10+0"
    # SOURCE.md quirks: 1,609 ratings exactly 1500; 44 out-of-time draws; 203 games <= 2 plies
    assert int((g.white_rating == 1500).sum() + (g.black_rating == 1500).sum()) == 1_609
    assert int(((g.victory_status == "outoftime") & (g.result == 0.5)).sum()) == 44
    assert int((g.turns <= 2).sum()) == 203
    assert set(g.victory_status.tolist()) == {"resign", "mate", "outoftime", "draw"}


def test_duplicates_and_deduplication():
    raw = lichess.load_games(deduplicate=False)
    ids = Counter(raw.game_id.tolist())
    # SOURCE.md: 813 ids appear more than once, 945 rows repeat an earlier game
    assert sum(1 for c in ids.values() if c > 1) == 813
    assert sum(c - 1 for c in ids.values()) == 945
    # SOURCE.md: 19,113 unique games, 15,467 of them rated
    g = lichess.load_games()
    assert len(g) == 19_113
    assert len(set(g.game_id.tolist())) == 19_113
    assert len(lichess.load_games(rated_only=True)) == 15_467
    # first occurrence kept, file order kept
    assert g.game_id[0] == raw.game_id[0] == "TZJHLljE"  # first data row of the CSV
    first_rows = sorted(
        {gid: i for i, gid in reversed(list(enumerate(raw.game_id.tolist())))}.values()
    )
    assert np.array_equal(g.game_id, raw.game_id[first_rows])


def test_columns_and_first_rows():
    g = lichess.load_games(deduplicate=False)
    # the first three data rows of lichess_games.csv
    assert g.white_rating[:3].tolist() == [1500, 1322, 1496]
    assert g.black_rating[:3].tolist() == [1191, 1261, 1500]
    assert g.result[:3].tolist() == [1.0, 0.0, 1.0]
    assert g.rated[:3].tolist() == [False, True, True]
    assert g.time_control[:3].tolist() == ["15+2", "5+10", "5+10"]
    assert g.difference[:3].tolist() == [309, 61, -4]
    assert g.white_rating.dtype.kind == "i" and g.result.dtype.kind == "f"


def test_filters():
    # SOURCE.md: 10+0 is the most common clock; count it independently from the raw bytes
    rows = lichess.raw_csv().decode().splitlines()[1:]
    n_10_0 = sum(1 for r in rows if r.split(",")[4] == "10+0")
    n_10_0_rated = sum(1 for r in rows if r.split(",")[4] == "10+0" and r.split(",")[3] == "true")
    assert len(lichess.load_games(time_control="10+0", deduplicate=False)) == n_10_0
    assert (
        len(lichess.load_games(time_control="10+0", rated_only=True, deduplicate=False))
        == n_10_0_rated
    )
    sel = lichess.load_games(rated_only=True, time_control=" 10+0 ")
    assert sel.rated.all() and (sel.time_control == "10+0").all()
    # every game falls in exactly one speed class
    total = sum(len(lichess.load_games(time_control=s)) for s in lichess.SPEEDS)
    assert total == 19_113


def test_speed_classes_follow_lichess_faq():
    # lichess.org/faq#time-controls: estimated duration = initial s + 40 x increment s;
    # up to 29 s ultrabullet, 179 s bullet, 479 s blitz, 1499 s rapid, then classical.
    # The FAQ's own example: 5+3 lasts 5 x 60 + 40 x 3 = 420 s, a blitz game.
    clocks = ["0.25+0", "0.5+0", "1+0", "2+1", "3+0", "5+3", "7+0", "8+0", "10+0", "24+0", "25+0"]
    expected = [
        "ultrabullet",
        "bullet",
        "bullet",
        "bullet",
        "blitz",
        "blitz",
        "blitz",
        "rapid",
        "rapid",
        "rapid",
        "classical",
    ]
    assert lichess.speed_of(clocks).tolist() == expected
    # boundaries through the increment: 0+11 = 440 s blitz, 0+12 = 480 s rapid,
    # 15+10 = 1300 s rapid, 15+15 = 1500 s classical
    assert lichess.speed_of(["0+11", "0+12", "15+10", "15+15"]).tolist() == [
        "blitz",
        "rapid",
        "rapid",
        "classical",
    ]
    assert lichess.speed_of("3+2").tolist() == "blitz"  # 180 + 80 = 260 s


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"time_control": "10-0"}, ValueError, "time_control"),
        ({"time_control": "hyperbullet"}, ValueError, "time_control"),
        ({"time_control": 10}, TypeError, "time_control"),
        ({"rated_only": "yes"}, TypeError, "rated_only"),
        ({"deduplicate": 1}, TypeError, "deduplicate"),
    ],
)
def test_bad_arguments_name_the_parameter(kwargs, error, words):
    with pytest.raises(error, match=words):
        lichess.load_games(**kwargs)


def test_select_validates_mask():
    g = lichess.load_games()
    with pytest.raises(ValueError, match="mask"):
        g.select(np.ones(3, dtype=bool))
    with pytest.raises(ValueError, match="mask"):
        g.select(np.ones(len(g)))
    with pytest.raises(ValueError, match="time_control"):
        lichess.speed_of(["10+0", "ten"])


def test_every_page_counts_the_lichess_games_as_source_md_does():
    # the landing page and 08 once said "19,000 real Lichess games" while 08 fits 15,467
    # rated games of 20,058; every count of them a reader sees must be one of SOURCE.md's
    from texts import all_texts, sentences

    source = DATA.joinpath("SOURCE.md").read_text(encoding="utf-8")
    figures = source[source.index("## Figures") : source.index("## Known quirks")]
    counts = {int(x.replace(",", "")) for x in re.findall(r"\b\d{1,3}(?:,\d{3})+\b", figures)}
    assert {20_058, 19_113, 15_467, 16_155} <= counts
    count = re.compile(
        r"(\b(?:about|around|nearly|some|over)\s+|~\s*)?\b(\d{1,3}(?:,\d{3})+|\d{4,})"
        r"\s+(?:[\w-]+\s+){0,3}?games\b",
        re.I,
    )
    seen, wrong = 0, []
    for where, _, text in all_texts():
        for sentence in sentences(text):
            if "lichess" not in sentence.lower():
                continue
            for m in count.finditer(sentence):
                seen += 1
                if m.group(1) or int(m.group(2).replace(",", "")) not in counts:
                    wrong.append(f"{where}: “{m.group(0)}” in “{sentence}”")
    # the landing page, 08's notebook, the README and the manual (08's view and tooltip now format their
    # counts in the page's language: the tooltip's two are checked in the models tests)
    assert seen >= 4
    assert not wrong, "counts of the Lichess games that are not SOURCE.md's:\n" + "\n".join(wrong)
