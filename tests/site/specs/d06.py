"""06 Elo vs Glicko. Sources (docs/sources.md#glicko, #telugu):
[SC]   scalachess GlickoCalculatorTest "mixed ratings and deviations": 1400 / RD 79 / σ 0.06
       against 1550 / RD 110 / σ 0.065: 1422.63 (win), 1406.31 (draw), 1389.99 (loss), RD 77.50;
       Lichess shows the whole part: 1422 / 1406 / 1389, changes +22.6 / +6.3 / −10.0.
[LILA] lila RatingCalculatorTest: two new players (1500 / RD 500 / σ 0.09): the winner 1741,
       the loser 1258 (± 1); a draw 1500; [LILA-G] "?" while RD ≥ 110.
[G1]/[G2] Glickman: the interval is rating ± 2·RD: 1500 ± 2 × 500 is 500 … 2500.
[TEL]  Telugu document: E = 1/(1 + 10^(Δ/400)), change = K × (score − E). By hand:
       1400 against 1550: 1/(1 + 10^0.375) = 0.297 → "0.30"; against 1700: 1/(1 + 10^0.75)
       = 0.151 → "0.15", K 20: 20 × 0.849 = +17.0, 20 × 0.349 = +7.0, 20 × −0.151 = −3.0.
"""

from tests.site.audit import Spec, Step

MINUS = "\u2212"
SC = "rating=1400&rd=79&volatility=0.06&days_away=0&k=20&opponent={}&opponent_rd=110&opponent_volatility=0.065"
WIN = ".ee-live-after-table tr:has(td:text-is('Win'))"
GLICKO = ".ee-live-before-table tr:has(td:text-is('Glicko-2 (Lichess)'))"
ELO = ".ee-live-before-table tr:has(td:text-is('Elo (÷400, FIDE K)'))"

SPEC = Spec(
    source="docs/sources.md#glicko, docs/sources.md#telugu",
    link="?" + SC.format(1550),
    link_shows=(
        (
            ".ee-results",
            f"Glicko-2 +22.6 / +6.3 / {MINUS}10.0, Lichess shows 1422 / 1406 / 1389, RD after 77.5",
        ),  # [SC]
        (".ee-summary", "Elo 1400 (E 0.30)"),  # [TEL] by hand
        # the notebook's live tables above the view follow the link too
        (f"{WIN} td:nth-child(4)", "+22.6"),  # [SC]
        (f"{WIN} td:nth-child(5)", "1422"),  # [SC]
        (f"{WIN} td:nth-child(6)", "77.5"),  # [SC]
        (f"{GLICKO} td:nth-child(6)", "not provisional (RD < 110)"),  # [LILA-G] RD 79
        (f"{ELO} td:nth-child(5)", "0.30"),  # [TEL] by hand
    ),
    step=Step(
        "type",
        ".ee-opponent",
        "1700",
        shows=(
            (".ee-summary", "Elo 1400 (E 0.15)"),  # [TEL] by hand
            (".ee-results", f"Elo +17.0 / +7.0 / {MINUS}3.0;"),
            (f"{ELO} td:nth-child(5)", "0.15"),
        ),
        redraws=(".ee-plot",),
        link="?" + SC.format(1700),
    ),
    bad_link="rd=20",
    bad_note=(
        "rd=20",
        "Your RD (last game) must be a whole number between 45 and 500",
        "the page keeps 500",
    ),
    defaults_show=(
        (".ee-summary", "Glicko-2 1500?, RD 500.0, interval 500 … 2500"),  # [LILA-G], [G1]/[G2]
        (".ee-results", "Lichess shows 1741? / 1500? / 1258?"),  # [LILA]
        (f"{WIN} td:nth-child(5)", "1741?"),  # [LILA]
    ),
)
