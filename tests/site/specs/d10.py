"""10 new to FIDE: docs/sources.md#fide-b02 (FIDE Rating Regulations B.02 section 7, table 8.1.1,
FIDE's notice of 1 March 2024; F9 the worked examples, F12 the uplift): 1 / 6 against
1400-1600 gives 1382, not published, from 1 March 2024, and 1227 under the 2022 rule (in force
on 2023-05-01, when the list started at 1000); 5 / 5 against 2000-2400 is capped at 2200 (2022
rule 2300); 3 / 5 against 1500-1800 gives 1743; 1650 became 1790 (+140) on 1 March 2024."""

from tests.site.audit import Spec, Step

SPEC = Spec(
    source="docs/sources.md#fide-b02",
    link="?opponents=1400%2C1450%2C1500%2C1500%2C1550%2C1600&scores=1%2C0%2C0%2C0%2C0%2C0"
    "&on=2023-05-01&rating=1650",
    link_shows=(
        (".ee-first-value", "1227"),  # the 2022 rule, in force then
        (".ee-other-rule", "From 1 March 2024: 1382, not published"),
        (".ee-uplift-value", "1790"),
        (".ee-floor-value", "1000"),
        # the notebook's live tables above the view follow the link too
        (".ee-live-first-rating-table", "on 2023-05-01: the 2022 rule is in force"),
    ),
    # the 5 / 5 example on the same date: 2300 under the 2022 rule, 2200 (capped) after
    step=Step(
        "choose",
        ".ee-preset",
        "5 / 5 against 2000-2400: capped at 2200 (2022 rule 2300)",
        shows=(
            (".ee-first-value", "2300"),
            (".ee-other-rule", "From 1 March 2024: 2200 (capped)"),
            (".ee-live-first-rating-table", "2200 (capped)"),
        ),
        link="?opponents=2000%2C2100%2C2200%2C2300%2C2400&scores=1%2C1%2C1%2C1%2C1"
        "&on=2023-05-01&rating=1650",
    ),
    bad_link="rating=99999",
    bad_note=(
        "rating=99999",
        "Rating before 1 March 2024 must be a whole number between 1000 and 3000",
    ),
    defaults_show=((".ee-first-value", "1743"), (".ee-uplift-value", "1700")),
)
