"""03 backgammon divisor: the Greek Gammon42 document's version history (docs/sources.md#greek):
300 points up, ÷1200 64.0 % (+12 / −20), ÷800 70.3 % (+9 / −23), ÷400 84.9 % (+5 / −27)."""

from tests.site.audit import Spec, Step

SPEC = Spec(
    source="docs/sources.md#greek",
    link="?divisor=800&difference=300",
    link_shows=(
        (
            ".ee-summary",
            "300 points up, ÷800: expected win rate 70.3 %; +9 for a win, −23 for a loss",
        ),
        # the notebook's live tables above the view follow the link too (one live document)
        (".ee-live-win-rates", "÷800 (your divisor)"),
        (".ee-live-history", "Your divisor (÷800)"),
        (".ee-live-changes", "÷800 (your divisor): favourite wins"),
    ),
    step=Step(
        "type",
        ".ee-divisor-field",
        "400",
        shows=(
            (".ee-summary", "÷400: expected win rate 84.9 %"),
            (".ee-live-win-rates", "÷400 (your divisor)"),
            (".ee-live-history", "Your divisor (÷400)"),
        ),
        redraws=(".ee-plot",),
        link="?divisor=400&difference=300",
    ),
    bad_link="divisor=abc",
    bad_note=("divisor=abc", "Your divisor must be a whole number between 100 and 4000"),
    defaults_show=((".ee-summary", "300 points up, ÷1200: expected win rate 64.0 %"),),
)
