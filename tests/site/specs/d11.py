"""11 what do I need?: worked by hand from the rules (docs/sources.md#greek and #fide-b02; the
same sources as tests/models/test_dash_plan.py).

[G42]  Gammon42 (K 32 under 50 ranked games in 7 days, ÷1200), 1800 against 1500: 300 up,
       E = 1 / (1 + 10^(−300/1200)) = .640: win +12 (32 × .360 = 11.5), loss −20
       (32 × .640 = 20.5); the win rate that holds the rating 20 / 32 = 62.5 %; at 70 %
       .7 × 12 − .3 × 20 = +2.40 a game. Wins in a row to 1850: 1812 (+12), then at 312, 323,
       334 and 345 up E = .645, .650, .655, .660: +11 each (11.3, 11.2, 11.0, 10.9): 1823,
       1834, 1845, 1856 -- 5 wins, the last at 1856.
[DIFF] FIDE, 1500 against 1000 (the 400-point rule: .92 a game, table 8.1.2), K 20,
       10 games, to 1507: by the table 10 / 10 gives 20 × (10 − 9.2) = +16 (1516), 9½ only
       +6; by the ÷400 formula (E = .90909) 9½ gives 20 × (9.5 − 9.0909) = +8.2 (1508).
[EVEN] FIDE, 9 games at even ratings, K 20 (table 8.1.2: .50): 7 / 9 gives +50 (1850),
       6½ gives +40 (1840); the next game: win +10, draw 0, loss −10.
"""

from tests.site.audit import Spec, Step

# the season the page starts with (its parameters cell), as a link writes it
SEASON = (
    "season=2026-01-10%3A+1750+1%2C+1820+0.5%2C+1900+0%0A2026-03-01%3A+1700+1%2C+1780+1"
    "%2C+1850+0.5%2C+1800+0%0A1760+1%2C+1810+0.5"
)
PROFILE = "k=20&rated_games=80&birth_year=1995&reached_2400=false&on=2026-01-01"

SPEC = Spec(
    source="docs/sources.md#greek; docs/sources.md#fide-b02",
    link=f"?system=gammon42&rating=1800&{PROFILE}&n_games=9&average=1800&target=1850"
    f"&opponent=1500&recent_games=0&cube=1&win_rate=70&{SEASON}",
    link_shows=(
        (".ee-answer", "5 wins in a row reach 1850 (last win: 1856)."),  # [G42]
        (".ee-stakes", "win +12, loss −20. At 70.0 %: +2.40 a game"),  # [G42]
        (".ee-stakes", "to hold the rating: 62.5 %"),  # [G42]
        # the notebook's live tables above the view follow the link too
        (".ee-live-gammon-table", "5 wins in a row against 1500 reach 1850"),  # [G42]
        (".ee-live-win-rate-table", "62.5 %"),  # [G42]
    ),
    # the first example: FIDE, 1500 against 1000 [DIFF]; the season's figure starts at 1500
    step=Step(
        "choose",
        ".ee-preset",
        "FIDE: 1500 against 1000, 10 games, to 1507 (table and formula differ)",
        shows=(
            (".ee-answer", "You need 10 / 10 (rating 1516)"),
            (".ee-answer", "The ÷400 formula would say 9.5 / 10."),
            (".ee-live-fide-table", "1508"),
        ),
        redraws=(".ee-plot",),
        link=f"?system=fide&rating=1500&{PROFILE}&n_games=10&average=1000&target=1507"
        f"&opponent=1500&recent_games=0&cube=1&win_rate=70&{SEASON}",
    ),
    bad_link="target=abc",
    bad_note=("target=abc", "Target rating must be a whole number between 1000 and 3400"),
    defaults_show=(
        (".ee-answer", "You need 7 / 9 (rating 1850); 6.5 gives 1840."),  # [EVEN]
        (".ee-stakes", "win +10, draw 0, loss −10"),
    ),  # [EVEN]
)
