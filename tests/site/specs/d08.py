"""08 calibrate: elo_explain/data/SOURCE.md [SRC]: 19,113 unique Lichess games, 15,467 of them
rated. (The fitted divisors, the buckets' numbers and ÷400's 76.0 % are asserted in
tests/models/test_dash_calibrate.py.)"""

from tests.site.audit import Spec, Step

SPEC = Spec(
    source="elo_explain/data/SOURCE.md",
    link="?rated_only=false&time_control=all&bucket=50&min_games=10&white_advantage=false",
    link_shows=(
        (".ee-headline", "19,113 Lichess games"),  # [SRC]
        (".ee-headline", "Buckets of 50 points (by their centre) with at least 10 games"),
        # the notebook's live tables above the view follow the link too
        (".ee-live-fit-table", "19,113"),  # [SRC]
        (
            ".ee-live-table",
            "Buckets of 50 points (by their centre) with at least 10 games: "
            "the Lichess games chosen",
        ),
    ),
    # rated games only again: the 15,467 [SRC], in the view and the fit table above
    step=Step(
        "click",
        ".ee-rated-only input",
        shows=((".ee-headline", "15,467 rated Lichess games"), (".ee-live-fit-table", "15,467")),
        redraws=(".ee-plot",),
        link="?rated_only=true&time_control=all&bucket=50&min_games=10&white_advantage=false",
    ),
    bad_link="bucket=7",
    bad_note=("bucket=7", "Bucket width must be a whole number between 25 and 200"),
    defaults_show=(
        (".ee-headline", "15,467 rated Lichess games"),  # [SRC]
        (".ee-headline", "Buckets of 100 points"),
    ),
)
