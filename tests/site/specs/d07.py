"""07 Every system, one game. Sources (docs/sources.md#greek, #fibs, #telugu):
[GR]  Greek document (Gammon42), K 32: equal ratings +16 / −16; a favourite 300 up expects
      84.9 % / 70.3 % / 64.0 % (÷400 / ÷800 / ÷1200) and loses −27 / −23 / −20.
[KB]  Bastian, "The FIBS Rating System": a 1-point match between experienced equal players is
      worth exactly 2.00.
[TEL] Telugu document: E = 1/(1 + 10^(Δ/400)), change = K × (score − E): equal ratings E 0.50,
      K 20 → ±10.0; by hand, 300 points up: 1/(1 + 10^(−0.75)) = 0.849 → "0.85".
"""

from tests.site.audit import Spec, Step

MINUS = "\u2212"
REST = (
    "&k=20&opponent_k=20&date=2025-10-01&cube=1&recent=0&opponent_recent=0&match_length=1"
    "&experience=400&opponent_experience=400&rd=60&opponent_rd=60&volatility=0.06"
    "&opponent_volatility=0.06"
)


def row(table: str, system: str, column: int) -> str:
    """A cell of a live table above the view: the row of ``system``, its ``column``-th cell
    (2: E for you, 3: your change)."""
    return f".ee-live-{table}-table tr:has(td:text-is('{system}')) td:nth-child({column})"


SPEC = Spec(
    source="docs/sources.md#greek, docs/sources.md#fibs, docs/sources.md#telugu",
    link="?rating=1800&opponent=1500&result=loss" + REST,
    link_shows=(
        (".ee-game", "1800 against 1500: you lose"),
        (".ee-summary", "E for you (÷400 formula) 0.85"),  # [TEL] by hand
        (".ee-live-chess-table caption", "1800 against 1500: you lose"),
        (row("chess", "Telugu calculator", 2), "0.85"),  # [TEL] by hand
        (row("backgammon", "Gammon42 1.0.5", 3), f"{MINUS}27"),  # [GR] ÷400
        (row("backgammon", "Gammon42 1.2.0", 3), f"{MINUS}23"),  # [GR] ÷800
        (row("backgammon", "Gammon42 1.3.1", 3), f"{MINUS}20"),  # [GR] ÷1200
        (row("backgammon", "Gammon42 1.3.1", 2), "0.64"),  # [GR] the favourite's 64.0 %
    ),
    step=Step(
        "type",
        ".ee-opponent",
        "1800",
        shows=(
            (".ee-game", "1800 against 1800: you lose"),
            (".ee-summary", "E for you (÷400 formula) 0.50"),  # [TEL]
            (row("backgammon", "Gammon42 1.3.1", 3), f"{MINUS}16"),  # [GR] equal
            (row("backgammon", "FIBS", 3), f"{MINUS}2.00"),
        ),  # [KB]
        redraws=(".ee-plot",),
        link="?rating=1800&opponent=1800&result=loss" + REST,
    ),
    bad_link="cube=3",
    bad_note=("cube=3", "Cube must be one of 1, 2, 4, 8, 16, 32, 64", "the page keeps 1"),
    defaults_show=(
        (".ee-game", "1500 against 1500: you win"),
        (row("backgammon", "Gammon42 1.3.1", 3), "+16"),  # [GR] equal
        (row("backgammon", "FIBS", 3), "+2.00"),  # [KB]
        (row("chess", "Telugu calculator", 3), "+10.0"),  # [TEL] K 20 × 0.5
    ),
)
