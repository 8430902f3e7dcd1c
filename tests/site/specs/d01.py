"""01 chess Elo calculator: the Telugu document's 400-point example (docs/sources.md#telugu):
K 20, 1500 beats 1000: with the real difference E 0.95, about +1.1 (a loss −18.9); with the
rule (500 counts as 400) E 0.91, +1.8 (a loss −18.2); 1500 against 1700: E 0.24. The
period of the listed games (the page's defaults): +7.2, +2.8, −8.6, new rating 1501. The
page prints negative numbers with the minus sign U+2212 ("−")."""

from tests.site.audit import Spec, Step

# every setting of the page, as its link writes them (the listed games: the Telugu period)
_REST = (
    "k=20&mode=single&opponents=1400%2C1600%2C1550&results=win%2Cdraw%2Closs&average=1600"
    "&n_games=5&points=3&rated_games=80&birth_year=1995&reached_2400=false&method=formula"
)

SPEC = Spec(
    source="docs/sources.md#telugu",
    link=f"?rating=1500&opponent=1000&result=win&{_REST}&cap_400=false&on=2026-01-01",
    link_shows=(
        # the rule off: the real difference 500, E 0.95, about +1.1
        (".ee-e", "0.95"),
        (".ee-change", "+1.1"),
        # the notebook's live tables above the view follow the link too (one live document)
        (".ee-live-outcomes-table", "1500 against 1000: every result"),
        (".ee-live-outcomes-table tr:has-text('Loss')", "−18.9"),
        (".ee-live-games-table", "(new rating 1501)"),
    ),
    # the 400-point rule switched on: 500 counts as 400, E 0.91, +1.8; a loss costs 18.2
    # (18.9 with the real difference), both sides in the table above; the curve redrawn
    step=Step(
        "click",
        ".ee-cap-400 input",
        shows=(
            (".ee-e", "0.91"),
            (".ee-change", "+1.8"),
            (".ee-outcomes", "loss −18.2; with the real difference"),
            (".ee-live-outcomes-table tr:has-text('Loss')", "−18.2"),
            (".ee-live-outcomes-table", "Change (400-point rule applied)"),
        ),
        redraws=(".ee-plot-curve",),
        link=f"?rating=1500&opponent=1000&result=win&{_REST}&cap_400=true&on=2026-01-01",
    ),
    bad_link="opponent=99",
    bad_note=("opponent=99", "Opponent must be a whole number between 100 and 3500"),
    # the defaults kept: 1500 against 1700, E 0.24 (expected points, not a chance)
    defaults_show=(
        (".ee-e", "0.24"),
        (".ee-summary", "not a 24 % chance of winning"),
        (".ee-live-outcomes-table", "1500 against 1700: every result"),
    ),
)
