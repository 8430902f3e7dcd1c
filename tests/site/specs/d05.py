"""05 K vs weekly volume: the Greek Gammon42 document (docs/sources.md#greek): fewer than 50
ranked games in the last 7 days → K 32, 50 or more → K 16 (G8); 60 games against 10, equal
ratings → +8 / −16 and +16 / −8, with the same K mirror images (G11: both K 16, +8 / −8);
the rule of thumb K × games × shortfall (G10; derived numbers: 32 × 300 × 2 % = 192). By
hand: 32 × 100 × 2 % = 64 points; the busy player's four weeks at 3, 13, 2 and 9 games a
day hold 7 × 27 = 189 games."""

from tests.site.audit import Spec, Step

LINK = (
    "?games=50&games_a=60&games_b=300&per_day=3%2C{week2}%2C2%2C9&swing_games=100"
    "&shortfall=2.5&feedback=false"
)

SPEC = Spec(
    source="docs/sources.md#greek",
    link=LINK.format(week2=12),
    link_shows=(
        (".ee-k-value", "K 16"),
        (".ee-a-wins", "+8 / −8"),
        (".ee-b-wins", "+8 / −8"),
        (".ee-swing", "64 points"),
        # the notebook's live outputs above the view follow the link too (one live document)
        (".ee-live-your-k", "K 16: 50 ranked games in the last 7 days"),
        (".ee-live-asymmetric-table", "A (K 16) wins"),
        (".ee-live-rule-of-thumb", "100 games in a week"),
    ),
    # one key step on week 2's slider: 13 games a day; the window's figure (the first) redrawn
    step=Step(
        "key",
        ".ee-week2",
        "ArrowRight",
        shows=(
            (".ee-window", "189 games in four weeks"),
            (".ee-live-switch-table", "189 games in four weeks"),
        ),
        redraws=(".ee-plot",),
        link=LINK.format(week2=13),
    ),
    bad_link="shortfall=lots",
    bad_note=(
        "shortfall=lots",
        "Points below expected win rate must be a number between 0 and 10",
        "the page keeps 2.5",
    ),
    defaults_show=(
        (".ee-k-value", "K 32"),
        (".ee-a-wins", "+8 / −16"),
        (".ee-b-wins", "+16 / −8"),
        (".ee-swing", "192 points"),
    ),
)
