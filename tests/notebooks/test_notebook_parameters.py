"""Each topic notebook run with new values injected after its parameters cell (papermill's
convention, ``notebook_runner.run_notebook``): its tables and its dashboard's starting state
follow them. Then the model is changed in the same kernel after every cell ran (a reader's
next cell, ``then=``): the tables the cells displayed follow it (``run.live``: what their
live outputs show now), while their first display (``run.outputs``) kept the old values.

The tags in the comments ([TE], [UK], [GR], [SRC], [ML], ...) name the independent sources that
the same topic's ``tests/models/test_dash_<topic>.py`` lists in its docstring.
"""

from __future__ import annotations

import html
import math
import re

import pytest

from elo_explain import lichess
from notebook_runner import run_notebook
from oracles import grid_fit

M = MINUS = "\u2212"  # the pages' minus sign
EX2 = {
    "opponents": [2000, 2100, 2200, 2300, 2400],
    "scores": [1, 1, 1, 1, 1],
}  # docs/sources.md#fide-b02 (F9)


def output(run, caption):
    """The notebook output that holds the table with this caption."""
    return next(o for o in run.outputs if caption in o)


def live(run, caption):
    """What the live output holding ``caption`` shows now (after ``then``), spaces folded."""
    return next(t for o in run.live if caption in (t := re.sub(r"\s+", " ", html.unescape(o))))


# ---------------------------------------------------------------- 01 chess calculator
def test_01_notebook_follows_its_parameters():
    run = run_notebook(
        "01_chess_calculator.ipynb",
        RATING=1500,
        OPPONENT=1000,
        RESULT="win",
        K=20,
        OPPONENTS=[1400, 1600, 1550],
        RESULTS=["win", "draw", "loss"],
        then="model.opponent = 1700",
    )
    # [TE] 1500 beats 1000, K 20, cap on: E 0.91, +1.8; without it 0.95, +1.1
    one = output(run, "1500 against 1000: every result")
    assert all(f"<td>{t}</td>" in one for t in ("0.91", "+1.8", "0.95", "+1.1"))
    # [TE] the period 1500 -> 1501
    period = output(run, "every game from the starting ratings")
    for text in ("+7.2", "+2.8", f"{M}8.6", "+1.4", "new rating 1501"):
        assert text in period, text
    assert (run.state["opponent"], run.state["result"], run.state["k"]) == (1000, "win", 20)
    # then the opponent changed in the kernel: [TE] 1500 against 1700, E 0.24, K 20: a draw
    # gains 20 × (0.5 − 0.24) = +5.2; the period's table does not depend on it
    now = live(run, "every result")
    assert "1500 against 1700: every result" in now and "<td>0.24</td>" in now
    assert "<td>+5.2</td>" in now
    assert "+7.2" in live(run, "every game from the starting ratings")
    run = run_notebook(
        "01_chess_calculator.ipynb",
        RATING=1500,
        OPPONENT=1500,
        K=10,
        OPPONENTS=[1500, 1500],
        RESULTS=["win", "win"],
    )
    # [E] equal ratings: E 0.5; K 10: a win +5, a loss -5
    one = output(run, "1500 against 1500: every result")
    assert all(f"<td>{t}</td>" in one for t in ("0.50", "+5.0", f"{M}5.0"))
    assert "<td>+10.0</td>" in output(run, "every game")  # two wins at E 0.5, K 10
    assert "<td>0.00</td>" in output(run, "Shortcut")  # equal opponents: no averaging error
    assert run.state["opponents"] == [1500, 1500] and run.state["k"] == 10


# ---------------------------------------------------------------- 02 fide rules
def test_02_notebook_follows_its_parameters():
    run = run_notebook(
        "02_fide_rules.ipynb",
        RATING=2100,
        RATED_GAMES=80,
        BIRTH_YEAR=2008,
        GAMES=40,
        RATING_A=2700,
        RATING_B=2200,
        ON="2025-01-01",
        DIFFERENCE=200,
        then="model.games = 20; model.birth_year = 1995",
    )
    # [TE] born 2008: a junior to the end of 2026, rated under 2300: K 40
    assert "K 40: born 2008, a junior" in run.text
    # [TE] the 700 rule with 40 games: K 40 -> 17, K 20 -> 17, K 10 stays
    assert "K lowered from 20 to 17" in run.text and "K stays 10" in run.text
    # [B02] before 1 October 2025 the 2700 is capped too: +400, E 0.92 / 0.08 (table)
    cap = next(o for o in run.outputs if "One game, both sides" in o)
    assert "<td>+400</td>" in cap and "<td>0.92</td>" in cap and "<td>0.08</td>" in cap
    assert run.state["difference"] == 200 and run.state["on"] == "2025-01-01"
    assert (run.state["games"], run.state["birth_year"]) == (40, 2008)
    # then 20 games and born 1995: [TE] a junior's K 40 with 20 games -> 35; born 1995, the
    # junior K ended with the year of the 18th birthday, 2013: rated 2100 with 80 games, K 20
    assert "K lowered from 40 to 35" in live(run, "The 700 rule")
    caption = live(run, "The first rule that matches gives K").split("</caption>")[0]
    assert "K 20: " in caption and "ended with 2013" in caption


# ---------------------------------------------------------------- 03 backgammon divisor
def test_03_notebook_follows_its_parameters():
    run = run_notebook(
        "03_backgammon_divisor.ipynb",
        DIVISOR=800,
        DIFFERENCE=200,
        then="model.divisor = 1200; model.difference = 300",
    )
    assert run.state == {"divisor": 800, "difference": 200}

    def table(caption):
        return next(o for o in run.outputs if caption in o)

    win_rates = table("Expected win rate of the favourite")
    changes = table("Rating changes with K 32")
    history = table("A favourite 200 points up")
    # document: ÷800, 300 up -> 70.3 % (version history); the ÷1200 column keeps 64.0 % (step 1)
    assert "÷800" in win_rates and "<td>300</td><td>64.0 %</td><td>70.3 %</td>" in win_rates
    # document: ÷800, 300 up -> +9 for a win, −23 for a loss (K 32), after ÷1200's +12 / +20
    assert (
        "<td>300</td><td>+12 / −12</td><td>+20 / −20</td><td>+9 / −9</td><td>+23 / −23</td>"
    ) in changes
    # document: 200 up, ÷400 -> 76.0 %; ÷1200 -> 59.5 % (step 1) and +13 / −19 (step 2)
    assert "<td>400</td><td>76.0 %</td>" in history
    assert "<td>1200</td><td>59.5 %</td><td>+13</td><td>−19</td>" in history
    # then ÷1200, 300 up in the kernel: the document's step 1 in both columns (64.0 %), its
    # version history at 300 (÷800 70.3 %, +9 / −23) with the reader's row at ÷1200
    assert "<td>300</td><td>64.0 %</td><td>64.0 %</td>" in live(run, "Expected win rate")
    now = live(run, "A favourite 300 points up")
    assert "<td>800</td><td>70.3 %</td><td>+9</td><td>−23</td>" in now
    assert "Your divisor (÷1200)</td><td>1200</td><td>64.0 %</td><td>+12</td><td>−20</td>" in now


# ---------------------------------------------------------------- 04 doubling cube
def test_04_notebook_follows_its_parameters():
    run = run_notebook(
        "04_doubling_cube.ipynb",
        CUBE=2,
        WINNER_K_SOURCE="from games this week",
        WINNER_GAMES=60,
        then="game.cube = 64",
    )
    assert run.state["cube"] == 2 and run.state["winner_games"] == 60
    # by hand: winner K 16 (60 games, document), loser K 32, 1500 vs 1500, cube 2 (7/6):
    # 16 × 0.5 × 7/6 = 9.33 -> +9; 32 × 0.5 × 7/6 = 18.67 -> −19
    outcome = output(run, "Winner 1500")
    assert "(K 16, from 60 games this week): +9" in outcome and "(K 32): −19" in outcome
    # then cube 64 (coefficient 2): 16 × 0.5 × 2 = +16 and 32 × 0.5 × 2 = −32
    now = live(run, "Winner 1500")
    assert "+16, new rating 1516" in now and "−32, new rating 1468" in now
    # the table's "your game" column at cube 1: the document's 60-vs-10 example, +8 / −16
    html = "\n".join(run.outputs)
    assert "<td>1</td><td>1.00</td><td>±16</td><td>±8</td><td>±16</td><td>+8 / −16</td>" in html
    assert "<td>2</td><td>1.17</td><td>±19</td><td>±9</td>" in html  # document, cube 2


# ---------------------------------------------------------------- 05 volume k
def test_05_notebook_follows_its_parameters():
    run = run_notebook(
        "05_volume_k.ipynb",
        GAMES=50,
        GAMES_A=10,
        SWING_GAMES=100,
        SHORTFALL=3.0,
        then="volume.games = 49; volume.games_a = 60",
    )
    assert run.state["games"] == 50 and run.state["swing_games"] == 100
    html = "\n".join(run.outputs)
    assert "K 16: 50 ranked games in the last 7 days" in html  # document: 50 -> K 16
    # then 49 games (document: fewer than 50 -> K 32), and A with 60 games against B's 10:
    # the document's example, +8 / −16 and +16 / −8
    assert "K 32: 49 ranked games in the last 7 days" in live(run, "ranked games")
    assert "<td>A (K 16) wins</td><td>+8 / −16</td>" in live(run, "games this week")
    # document, step 3: 150 -> +14 / −18 at K 32 and +7 / −9 at K 16
    assert "<td>150</td><td>+14 / −18</td><td>+7 / −9</td>" in html
    # A 10 games (K 32) vs B 10 games (K 32): the winner gains what the loser loses
    assert "<td>A (K 32) wins</td><td>+16 / −16</td>" in html
    assert "<td>B (K 32) wins</td><td>+16 / −16</td>" in html
    # rule of thumb at 100 games: 32 × 100 × 0.02 = 64, × 0.03 = 96; K 16 half
    assert "<td>2 points below</td><td>64 points</td><td>32 points</td>" in html
    assert "<td>3 points below</td><td>96 points</td><td>48 points</td>" in html


# ---------------------------------------------------------------- 06 elo vs glicko
def test_06_notebook_follows_its_parameters():
    # [SC] 1400 / 79 / 0.06 against 1550 / 110 / 0.065: 1422.63 (win), 1406.31 (draw),
    # 1389.99 (loss), RD 77.50; shown without "?" (RD < 110) [LILA-G]
    run = run_notebook(
        "06_elo_vs_glicko.ipynb",
        RATING=1400,
        RD=79,
        VOLATILITY=0.06,
        OPPONENT=1550,
        OPPONENT_RD=110,
        OPPONENT_VOLATILITY=0.065,
        K=20,
        then="game.apply({'rd': 60, 'days_away': 365})",
    )
    assert run.state == dict(
        rating=1400,
        rd=79,
        volatility=0.06,
        days_away=0,
        k=20,
        opponent=1550,
        opponent_rd=110,
        opponent_volatility=0.065,
    )
    text = run.text
    for printed in ("+22.6", "+6.3", MINUS + "10.0", "1422", "1406", "1389", "77.5"):
        assert printed in text, printed
    assert "1400?" not in text.split("Glicko-1")[0]  # RD 79 before the game: no "?"
    # [G1]/[G2] the papers' printed values, beside the computed ones
    for printed in ("1464", "151.4", "1464.06", "151.52", "0.05999"):
        assert printed in text, printed
    # [TEL] Elo: E for 1400 against 1550 is 1/(1 + 10^(150/400)) = 0.2966; K 20: a win
    # 20 × (1 − 0.2966) = +14.07
    assert "0.30" in text and "+14.1" in text
    # then a regular's RD 60 (σ 0.06) after a year away [LILA-G]: RD 110 at the game, "1400?"
    assert "110.0 (60 + 365 idle days)" in live(run, "Before the game")
    assert "1400?" in live(run, "Before the game")
    assert "365 days without games is 110.0" in live(run, "Lichess's figure")


def test_06_notebook_after_a_year_away_is_provisional():
    # [LILA-G] a regular (RD 60, σ 0.06) back after a year: RD 110, shown "1500?"
    run = run_notebook("06_elo_vs_glicko.ipynb", RD=60, VOLATILITY=0.06, DAYS_AWAY=365, K=20)
    assert run.state["days_away"] == 365 and run.state["rd"] == 60
    assert "110.0 (60 + 365 idle days)" in run.text and "1500?" in run.text


# ---------------------------------------------------------------- 07 every system
def test_07_notebook_follows_its_parameters():
    # [GR] the favourite 300 up loses: −27 / −23 / −20 under ÷400 / ÷800 / ÷1200 (K 32);
    # [TEL] E = 1/(1 + 10^(−300/400)) = 0.85 for the favourite; FIDE K 10: 10 × (0 − 0.85)
    # = −8.5 → −9, rounded half away from zero [FIDE] (table 8.1.2: 291–302 → .85, the same)
    run = run_notebook(
        "07_every_system.ipynb",
        RATING=1800,
        OPPONENT=1500,
        RESULT="loss",
        K=10,
        then="game.result = 'win'",
    )
    assert run.state["rating"] == 1800 and run.state["opponent"] == 1500
    assert run.state["result"] == "loss" and run.state["k"] == 10
    shown = {
        cells[0]: cells
        for out in run.outputs
        for tr in re.findall("<tr>(.*?)</tr>", out)
        if (cells := re.findall("<td>(.*?)</td>", tr))
    }
    for version, change in (("1.0.5", 27), ("1.2.0", 23), ("1.3.1", 20)):
        assert shown[f"Gammon42 {version}"][2:4] == [f"{MINUS}{change}", f"+{change}"]
    assert shown["FIDE table, no cap"][1:3] == ["0.85", f"{MINUS}8.5 → {MINUS}9"]
    assert "1800 against 1500: you lose" in run.text
    # then the favourite wins [GR]: +5 / +9 / +12 under ÷400 / ÷800 / ÷1200 (K 32)
    now = {
        cells[0]: cells
        for tr in re.findall("<tr>(.*?)</tr>", live(run, "Gammon42 1.3.1"))
        if (cells := re.findall("<td>(.*?)</td>", tr))
    }
    for version, change in (("1.0.5", 5), ("1.2.0", 9), ("1.3.1", 12)):
        assert now[f"Gammon42 {version}"][2:4] == [f"+{change}", f"{MINUS}{change}"]


# ---------------------------------------------------------------- 08 calibrate
def test_08_notebook_follows_its_parameters():
    run = run_notebook(
        "08_calibrate.ipynb",
        RATED_ONLY=False,
        BUCKET=50,
        MIN_GAMES=10,
        then="games.rated_only = True",
    )
    assert run.state == {
        "rated_only": False,
        "time_control": "all",
        "bucket": 50,
        "min_games": 10,
        "white_advantage": False,
    }
    g = lichess.load_games(rated_only=False)
    assert len(g) == 19113  # [SRC] all unique games
    best, lo, hi = grid_fit(g.difference.astype(float), g.result)
    text = re.sub(r"\s+", " ", run.text)
    fit = re.search(r"(\d[\d,]*) ÷(\d+\.\d) (\d+\.\d) (\d+\.\d)", text)
    assert fit.group(1) == "19,113"  # [SRC]
    for shown, expected in zip(fit.groups()[1:], (best, lo, hi)):
        assert float(shown) == pytest.approx(expected, abs=0.15)  # [ML], printed to 0.1
    assert "Buckets of 50 points (by their centre) with at least 10 games" in text
    d = g.difference
    inside = (d >= 175) & (d < 225)  # the bucket centred on +200
    assert re.search(rf"\+200 {inside.sum():,} {100 * g.result[inside].mean():.1f} %", text)
    # then rated games only: both tables follow, [SRC] 15,467 rated games
    assert "<td>15,467</td>" in live(run, "The divisor these games imply")
    rated = lichess.load_games(rated_only=True)
    inside = (rated.difference >= 175) & (rated.difference < 225)
    assert f"<td>+200</td><td>{inside.sum():,}</td>" in live(run, "Buckets of 50 points")


# ---------------------------------------------------------------- 09 simulate ladder
def test_09_notebook_follows_its_parameters():
    """Plain Elo with equal true strengths, 100 games a week in the swing tables.

    [EQ] With spread 0 every player has the same true strength, so the true curve gives
    every favourite exactly E(0) = 0.5 (docs/sources.md#telugu T4: equal ratings, E = 0.5)."""
    run = run_notebook(
        "09_simulate_ladder.ipynb",
        RULES="Elo per game (K 20, ÷400)",
        PLAYERS=50,
        WEEKS=10,
        SPREAD=0,
        SWING_GAMES=100,
        then="ladder.swing_games = 300; ladder.weeks = 4",
    )
    assert run.state == {
        "rules": "Elo per game (K 20, ÷400)",
        "true_curve": "own",
        "players": 50,
        "games_per_week": 5,
        "weeks": 10,
        "spread": 0,
        "seed": 1,
        "swing_games": 100,
        "feedback": False,
    }
    text = re.sub(r"\s+", " ", run.text)
    season = re.search(
        r"after 10 weeks .*? Correlation with true strengths "
        r"(\S+) (\S+) (\S+) (\S+) (\S+) (\S+)",
        text,
    )
    assert season.groups()[:4] == ("50", "10", "5", "1500")  # [ZS] the mean stays 1500
    assert season.group(6) == "0"  # true strengths' SD: spread 0
    assert "Their true strengths gave 50.0 % 50.0 % 50.0 %" in text  # [EQ]
    # K x games x shortfall at 100 games: 32 x 100 x 2 % = 64, x 3 % = 96; K 16 half [G42]
    assert "32 100 64 96 16 100 32 48" in text
    row = re.search(r"Luck alone: .*? 100 ±(\d+) \S+ % ±(\d+)", text)
    assert int(row.group(1)) == pytest.approx(16 * math.sqrt(100), rel=0.05)  # [BIN] 160
    assert int(row.group(2)) == pytest.approx(8 * math.sqrt(100), rel=0.05)  # [BIN] 80
    # then 300 games a week [G42]: 32 × 300 × 2 % = 192, × 3 % = 288; and a 4-week season
    # (small: simulated at once), its table follows
    assert "<td>32</td><td>300</td><td>192</td><td>288</td>" in live(run, "A week's loss")
    assert "after 4 weeks" in live(run, "Correlation with true strengths")


# ---------------------------------------------------------------- 10 new to fide
def test_10_notebook_with_changed_parameters():
    run = run_notebook(
        "10_new_to_fide.ipynb",
        OPPONENTS=EX2["opponents"],
        SCORES=EX2["scores"],
        ON="2023-06-01",
        RATING=1650,
        then="model.apply({'on': '2025-06-01', 'rating': 1800})",
    )
    assert run.state == {
        "opponents": EX2["opponents"],
        "scores": [1.0] * 5,
        "on": "2023-06-01",
        "rating": 1650,
    }

    def output(caption):
        return next(re.sub(r"\s+", " ", o) for o in run.outputs if caption in o)

    event = output("Your first event")  # the first-rating table of the parameters
    assert "5 / 5" in event and "2085.71" in event and "2200 (capped)" in event and "2300" in event
    assert "on 2023-06-01: the 2022 rule is in force" in event  # the rule in force in 2023
    assert "<td>1650</td><td>1790</td><td>+140</td>" in output("uplift")  # [UP] 1650 -> 1790
    assert "<td>309</td>" in output("table 8.1.1") and "<td>677</td>" in output("table 8.1.1")
    # then the event on 2025-06-01 (docs/sources.md#fide-b02 F9: the 2024 rule is in force, 5 / 5 against
    # 2000-2400 capped at 2200), and 1800 before March 2024: 1800 + 0.4 × 200 = 1880 [UP]
    now = live(run, "Your first event")
    assert "on 2025-06-01: the 2024 rule is in force" in now and "2200 (capped)" in now
    assert "<td>1800</td><td>1880</td><td>+80</td>" in live(run, "uplift")


# ---------------------------------------------------------------- 11 plan
def test_11_notebook_follows_its_parameters_then_the_model():
    run = run_notebook(
        "11_plan.ipynb",
        RATING=1500,
        AVERAGE=1000,
        N_GAMES=10,
        TARGET=1507,
        then="model.average = 1500",
    )
    assert run.state["rating"] == 1500 and run.state["target"] == 1507
    assert "You need 10 / 10 (rating 1516); 9.5 gives 1506." in run.text  # [DIFF]
    # then at even ratings (K 20, 10 games): 20 × (s − 5) >= 7 -> 5.5 (+10, 1510)
    assert any("You need 5.5 / 10 (rating 1510)" in out for out in run.live)
