"""09 Simulate a ladder. Sources (docs/sources.md#greek G10, #telugu T2):
[G42] Gammon42 document, G10: a week's loss is about K × games × shortfall: "at 300 ranked games
      a week and K 32, 2-3 points below the expected win rate cost about 200": by hand
      32 × 300 × 2 % = 192 to 32 × 300 × 3 % = 288, K 16 half (96 to 144); at 100 games
      64 to 96; at 150 games 96 to 144 (K 16: 48 to 72).
[ZS]  Plain Elo is zero-sum (T2: the winner gains what the loser loses): the mean rating stays
      at the start, 1500.
"""

from tests.site.audit import Spec, Step

ELO = (
    "rules=Elo+per+game+%28K+20%2C+%C3%B7400%29"  # "Elo per game (K 20, ÷400)", as a link writes it
)
REST = "&true_curve=own&players=50&games_per_week=5&weeks=10&spread=200&seed=1&swing_games={}&feedback=false"
THUMB = ".ee-live-rule-of-thumb-table tr:has(td:first-child:text-is('{k}')) td:nth-child({column})"
SEASON = ".ee-live-season-table td:nth-child({column})"

SPEC = Spec(
    source="docs/sources.md#greek, docs/sources.md#telugu",
    link="?" + ELO + REST.format(100),
    link_shows=(
        (".ee-summary", "Elo K 20 ÷400, 50 players, 10 weeks × 5 games"),
        (".ee-swing", "At 100 games a week: typical swing"),
        (".ee-swing", "32 × 100 × 2 % = 64 to 32 × 100 × 3 % = 96"),  # [G42]
        # the notebook's live tables above the view follow the link too
        (".ee-live-season-table caption", "Elo K 20 ÷400 after 10 weeks"),
        (SEASON.format(column=1), "50"),
        (SEASON.format(column=4), "1500"),  # [ZS]
        (THUMB.format(k=32, column=3), "64"),  # [G42]
        (THUMB.format(k=32, column=4), "96"),  # [G42]
    ),
    # the weekly swing one step right: 100 → 150 games a week; its figure is the second
    # (the season's first), the next of the view's images after it
    step=Step(
        "key",
        ".ee-swing-games",
        "ArrowRight",
        shows=(
            (".ee-swing", "At 150 games a week: typical swing"),
            (".ee-swing", "32 × 150 × 2 % = 96 to 32 × 150 × 3 % = 144"),  # [G42]
            (".ee-swing", "48 to 72 at K 16"),  # [G42]
            (THUMB.format(k=32, column=4), "144"),  # [G42]
            (THUMB.format(k=16, column=4), "72"),
        ),  # [G42]
        redraws=((".ee-plot", 1),),
        link="?" + ELO + REST.format(150),
    ),
    bad_link="players=5",
    bad_note=(
        "players=5",
        "Players must be a whole number between 10 and 1000",
        "the page keeps 100",
    ),
    defaults_show=(
        (".ee-summary", "Gammon42 1.3.1 (÷1200), 100 players, 20 weeks × 5 games"),
        (".ee-swing", "At 300 games a week: typical swing"),
        (".ee-swing", "32 × 300 × 2 % = 192 to 32 × 300 × 3 % = 288"),  # [G42]
        (".ee-swing", "96 to 144 at K 16"),  # [G42]
        (THUMB.format(k=32, column=3), "192"),  # [G42]
    ),
)
