"""02 FIDE rules: the Telugu document (docs/sources.md#telugu) and FIDE's Rating Regulations
B.02 (docs/sources.md#fide-b02): a junior born 2008 rated 2100 gets K 40 in 2026 (under 2300,
to the end of the year of the 18th birthday); the 700 rule lowers K 40 with 40 games to
700 // 40 = 17 (17 × 40 = 680), and K 40 with 20 games to 35; since 1 October 2025 a player
rated 2650 or more keeps the real difference, one below it is capped at 400: 2600 against 2200
uses +400, 2200 −400, and the two E's add up to 1 (zero-sum). The page prints negative
numbers with the minus sign U+2212 ("−")."""

from tests.site.audit import Spec, Step

_PROFILE = "rating=2100&rated_games=80&birth_year=2008&reached_2400=false&on=2026-01-01&games=40"
_REST = "rating_b=2200&k=20&method=table&difference=400"

SPEC = Spec(
    source="docs/sources.md#telugu, docs/sources.md#fide-b02",
    link=f"?{_PROFILE}&rating_a=2700&{_REST}",
    link_shows=(
        (".ee-k-value", "40"),
        (".ee-k-reason", "junior"),
        (".ee-700-line", "K 40 × 40 games = 1600 > 700: K becomes 17 (17 × 40 = 680)."),
        # the notebook's live tables above the view follow the link too (one live document)
        (".ee-live-k-rules caption", "K 40: born 2008, a junior"),
        (".ee-live-table-700 tr:has-text('Your period: K 40, 40 games') td:nth-child(5)", "17"),
    ),
    # player A typed 2600, below 2650: capped too, zero-sum again; the cap figure redrawn
    step=Step(
        "type",
        ".ee-rating-a",
        "2600",
        shows=(
            (".ee-cap-sum", "zero-sum"),
            (".ee-cap-a", "difference used +400"),
            (".ee-cap-b", "difference used −400"),
            (".ee-live-cap-table", "Player A (2600)"),
            (".ee-live-cap-table tr:has-text('Difference used')", "+400"),
        ),
        redraws=(".ee-plot-cap",),
        link=f"?{_PROFILE}&rating_a=2600&{_REST}",
    ),
    bad_link="games=500",
    bad_note=("games=500", "Games in the period must be a whole number between 1 and 80"),
    # the defaults kept: 20 games, K 40 -> 35; the default profile (1800, born 1995): K 20
    defaults_show=(
        (".ee-700-line", "K 40 × 20 games = 800 > 700: K becomes 35 (35 × 20 = 700)."),
        (".ee-k-value", "20"),
    ),
)
