"""04 doubling cube: the Greek Gammon42 document (docs/sources.md#greek): the cube's
coefficient 1 + log2(cube) / 6, cube 2 → 1.17, cube 4 → 1.33 (G18); two players at 1500 →
+16 / −16 (G5); the underdog 300 points down wins at cube 1 → +20 / −20 (G6), its expected
score 1 − 0.640 (G4: 64.0 %). By hand: at cube 2 32 × 0.640 × 7/6 = 23.9 → +24 / −24, at
cube 4 32 × 0.640 × 4/3 = 27.3 → +27 / −27."""

from tests.site.audit import Spec, Step

REST = "&winner_k_source=K+32&loser_k_source=K+32&winner_games=0&loser_games=0"

SPEC = Spec(
    source="docs/sources.md#greek",
    link="?winner_rating=1500&loser_rating=1800&cube=2" + REST,
    link_shows=(
        (".ee-winner-change", "+24"),
        (".ee-loser-change", "−24"),
        (".ee-coefficient", "1.17"),
        # the notebook's live outputs above the view follow the link too (one live document)
        (".ee-live-outcome", "Winner 1500 (K 32): +24, new rating 1524"),
        (".ee-live-outcome", "Loser 1800 (K 32): −24, new rating 1776"),
        (".ee-live-cubes", "+24 / −24"),  # the table's "your game" column at cube 2
    ),
    # one key step on the cube slider: cube 4
    step=Step(
        "key",
        ".ee-cube",
        "ArrowRight",
        shows=(
            (".ee-coefficient", "1.33"),
            (".ee-winner-change", "+27"),
            (".ee-loser-change", "−27"),
            (".ee-live-outcome", "Cube 4, coefficient 1.33"),
        ),
        redraws=(".ee-plot",),
        link="?winner_rating=1500&loser_rating=1800&cube=4" + REST,
    ),
    bad_link="cube=3",
    bad_note=("cube=3", "cube must be one of 1, 2, 4, 8, 16, 32, 64", "the page keeps 1"),
    defaults_show=(
        (".ee-winner-change", "+16"),
        (".ee-loser-change", "−16"),
        (".ee-live-outcome", "Winner 1500 (K 32): +16"),
    ),
)
