"""Dashboard "New to FIDE": a first FIDE rating from a first event, the 2024 uplift, the floor.

:class:`NewToFideModel` holds the games (``opponents``, ``scores``), the event's date ``on``
and a ``rating`` for the uplift; it reads a pasted list of games (:meth:`parse_games`) and
builds its tables from :mod:`elo_explain.fide` (``initial_rating`` under the 2024 and the
2022 rule, ``performance_rating``, ``uplift_2024``, ``rating_floor``, ``TABLE_8_1_1``).
:class:`NewToFideView` shows it: a text box of games (one per line or comma-separated), a
row to add a game, the first rating under the rule in force and the other rule's, the uplift
slider. The notebook's tables of the reader's event and uplift are declared: they follow it.

>>> m = NewToFideModel()
>>> r = m.first_rating()
>>> round(r.average_opponent, 2), r.score_fraction, r.dp, r.rating, r.published
(1692.86, 0.57, 50, 1743, True)
>>> NewToFideModel.parse_games("2000 1, 2100 ½\\n2200 0")
([2000, 2100, 2200], [1.0, 0.5, 0.0])
>>> NewToFideModel.parse_games("1600 1, 1700 2")
Traceback (most recent call last):
...
ValueError: Games, row 2 ('1700 2'): the result must be 1 (win), 0.5 or ½ (draw), 0 (loss), got '2'
"""

from __future__ import annotations

import contextlib
import datetime as dt
import html
import re

import ipywidgets as widgets
import traitlets

from elo_explain import fide
from elo_explain._validate import integer
from elo_explain.formats import fmt_number, fmt_plain, fmt_signed, symbols
from elo_explain.i18n import N_, _, language
from elo_explain.interactive.budget import fits
from elo_explain.interactive.live import depends
from elo_explain.interactive.model import DashboardModel
from elo_explain.interactive.page import NumberField, html_box, value_html
from elo_explain.interactive.traits import FieldError, Whole, shown_label
from elo_explain.interactive.view import DashboardView
from elo_explain.tables import Table

__all__ = ["NewToFideModel", "NewToFideView"]

LOWEST = fide.FLOOR_BEFORE_2024  # the lowest rating an opponent could have (before 2024)
MAX_GAMES = 100
RESULTS = {
    "1": 1.0,
    "1.0": 1.0,
    "win": 1.0,
    "0.5": 0.5,
    ".5": 0.5,
    "½": 0.5,
    "1/2": 0.5,
    "=": 0.5,
    "draw": 0.5,
    "0": 0.0,
    "0.0": 0.0,
    "loss": 0.0,
}
RESULT_WORDS = N_("1 (win), 0.5 or ½ (draw), 0 (loss)")
RULES = {"2024": N_("From 1 March 2024"), "2022": N_("2022 rule (to 29 February 2024)")}
LAST_2022_DAY = fide.RULES_FROM - dt.timedelta(days=1)
#: What a first rating is computed from.
EVENT = ("opponents", "scores", "on")


def _html(text: str) -> str:
    """Text put into a page's HTML (``<``, ``>``, ``&`` escaped; quotes kept, as before)."""
    return html.escape(text, quote=False)


def _out(css: str) -> widgets.HTML:
    """An output box (``html_box`` needs a layout argument: with none it fails)."""
    return html_box(css, width="auto")


class InvalidGames(FieldError):
    """A bad value: a ``ValueError`` that is also a ``TraitError``, so that traitlets rolls
    back every value of a preset when one is bad (it rolls back only on a ``TraitError``)."""


@contextlib.contextmanager
def _invalid():
    try:
        yield
    except (TypeError, ValueError) as exc:
        raise InvalidGames(str(exc)) from None


def _result(where: str, value) -> float:
    key = str(value).strip().lower() if isinstance(value, str) else value
    if isinstance(key, str):
        key = RESULTS.get(key, key)
    if isinstance(key, bool) or key not in (0, 0.5, 1):
        raise ValueError(
            _("{where} must be {allowed}, got {value}").format(
                where=where, allowed=_(RESULT_WORDS), value=repr(value)
            )
        )
    return float(key)


class NewToFideModel(DashboardModel):
    """A first event's games (``opponents``, ``scores``), its date ``on``, and a ``rating``
    before 1 March 2024 for the uplift."""

    params = ("opponents", "scores", "on", "rating")
    presets = {  # docs/sources.md#fide-b02 (F9), worked examples
        N_("3 / 5 against 1500-1800: 1743 (2022 rule 1670)"): {
            "opponents": [1600, 1700, 1800, 1500, 1650],
            "scores": [1, 0.5, 0.5, 1, 0],
        },
        N_("5 / 5 against 2000-2400: capped at 2200 (2022 rule 2300)"): {
            "opponents": [2000, 2100, 2200, 2300, 2400],
            "scores": [1, 1, 1, 1, 1],
        },
        N_("1 / 6 against 1400-1600: 1382, not published (2022 rule 1227)"): {
            "opponents": [1400, 1450, 1500, 1500, 1550, 1600],
            "scores": [1, 0, 0, 0, 0, 0],
        },
    }
    # the link settings' labels: the games table's "Opponents", the date picker's words
    opponents = traitlets.List([1600, 1700, 1800, 1500, 1650]).tag(label=N_("Opponents"))
    scores = traitlets.List([1.0, 0.5, 0.5, 1.0, 0.0]).tag(label=N_("Results"))
    on = traitlets.Unicode("2025-06-01").tag(label=N_("Event ends on"))
    rating = Whole(1500, LOWEST, fide.RATING_MAX, label=N_("Rating before 1 March 2024"))

    @traitlets.validate("opponents", "scores")
    def _check_games(self, proposal):
        values, name = list(proposal["value"]), proposal["trait"].name
        label = shown_label(proposal["trait"])
        with _invalid():
            if not 1 <= len(values) <= MAX_GAMES:
                raise ValueError(
                    _("{name}: there must be 1 to {most} games, got {count}").format(
                        name=label, most=MAX_GAMES, count=len(values)
                    )
                )
            if name == "scores":
                return [
                    _result(_("Result in row {row}").format(row=i), x)
                    for i, x in enumerate(values, 1)
                ]
            return [
                integer(_("Opponent in row {row}").format(row=i), x, lo=LOWEST, hi=fide.RATING_MAX)
                for i, x in enumerate(values, 1)
            ]

    @traitlets.validate("on")
    def _check_on(self, proposal):
        with _invalid():
            try:
                day = dt.date.fromisoformat(proposal["value"].strip())
            except ValueError:
                day = None
            if day is None or not fide.RULES_2022_FROM <= day <= dt.date(2099, 12, 31):
                raise ValueError(
                    _(
                        "Event date must be a date YYYY-MM-DD from {first} to "
                        "2099-12-31, got {value}"
                    ).format(first=fide.RULES_2022_FROM, value=repr(proposal["value"]))
                )
            return day.isoformat()

    # --- the games as text ---------------------------------------------------------------
    @staticmethod
    def parse_games(text: str) -> tuple[list[int], list[float]]:
        """Games from text: "rating result" per row, rows on lines or separated by commas
        or semicolons. ``ValueError`` naming the row and the allowed values."""
        if not fits(text, MAX_GAMES):  # before splitting: a long text costs only its length
            raise ValueError(_("at most {most} games can be listed").format(most=MAX_GAMES))
        rows = [r.strip() for r in re.split(r"[,;\n]", text or "") if r.strip()]
        if not rows:
            raise ValueError(
                _(
                    "Games: none entered; write the opponent's rating and the "
                    "result, one game per line or separated by commas, e.g. 1600 1, "
                    "1700 0.5"
                )
            )
        if len(rows) > MAX_GAMES:
            raise ValueError(
                _("Games: at most {most}, got {count}").format(most=MAX_GAMES, count=len(rows))
            )
        opponents, scores = [], []
        for i, row in enumerate(rows, 1):
            where = _("Games, row {row} ({text})").format(row=i, text=repr(row[:30]))
            parts = row.split()
            if len(parts) != 2:
                raise ValueError(
                    _("{where}: write the opponent's rating and the result, e.g. 1700 0.5").format(
                        where=where
                    )
                )
            if not re.fullmatch(r"\d{1,4}", parts[0]):
                raise ValueError(
                    _(
                        "{where}: the opponent's rating must be a whole number "
                        "from {lo} to {hi}, got {got}"
                    ).format(where=where, lo=LOWEST, hi=fide.RATING_MAX, got=repr(parts[0][:20]))
                )
            opponents.append(
                integer(
                    _("{where}: the opponent's rating").format(where=where),
                    int(parts[0]),
                    lo=LOWEST,
                    hi=fide.RATING_MAX,
                )
            )
            try:
                scores.append(_result(where, parts[1]))
            except ValueError:
                raise ValueError(
                    _("{where}: the result must be {allowed}, got {got}").format(
                        where=where, allowed=_(RESULT_WORDS), got=repr(parts[1][:20])
                    )
                ) from None
        return opponents, scores

    def games_text(self) -> str:
        """The games, one per line, as :meth:`parse_games` reads them."""
        half = "0.5" if symbols().decimal == "." else "½"  # a decimal comma would split the list
        return "\n".join(
            f"{o} {half if s == 0.5 else f'{s:g}'}" for o, s in zip(self.opponents, self.scores)
        )

    # --- computation -----------------------------------------------------------------------
    def rule_in_force(self) -> str:
        """``"2024"`` from 1 March 2024, else ``"2022"``."""
        return "2024" if dt.date.fromisoformat(self.on) >= fide.RULES_FROM else "2022"

    @depends(*EVENT)
    def first_rating(self, rule: str | None = None) -> fide.InitialRating:
        """The first rating under ``rule`` (default: the one in force on ``on``)."""
        rule = rule or self.rule_in_force()
        day = dt.date.fromisoformat(self.on)
        day = max(day, fide.RULES_FROM) if rule == "2024" else min(day, LAST_2022_DAY)
        return fide.initial_rating(self.opponents, self.scores, on=day)

    def performance(self) -> float:
        return fide.performance_rating(self.opponents, self.scores)

    def uplift(self) -> int:
        return fide.uplift_2024(self.rating)

    def floor(self) -> int:
        return fide.rating_floor(self.on)

    # --- tables ------------------------------------------------------------------------------
    @depends(*EVENT)
    def first_rating_table(self) -> Table:
        """Both rules side by side for the games entered (a rule the games cannot be rated
        under, e.g. an opponent below its floor, says why in its last column)."""
        rows = []
        for rule, name in RULES.items():
            try:
                r = self.first_rating(rule)
            except ValueError as exc:
                rows.append(
                    (
                        _(name),
                        len(self.opponents),
                        None,
                        None,
                        None,
                        None,
                        _("cannot: {reason}").format(reason=exc),
                    )
                )
                continue
            rating = _("{rating} (capped)").format(rating=r.rating) if r.capped else r.rating
            rows.append(
                (
                    _(name),
                    r.games,
                    r.average_opponent,
                    r.score_fraction,
                    r.dp,
                    rating,
                    _("yes") if r.published else _("no: {reason}").format(reason=r.reason),
                )
            )
        return Table(
            (_("Rule"), _("Rated games"), "Ra", "p", "dp", _("First rating"), _("Published")),
            rows,
            _("Your first event ({points} / {games}) on {on}: the {rule} rule is in force").format(
                points=fmt_plain(sum(self.scores)),
                games=len(self.scores),
                on=self.on,
                rule=self.rule_in_force(),
            ),
            (None, None, "{:.2f}", "{:.2f}", "{:+d}", None, None),
        )

    @classmethod
    def worked_examples(cls, on: str = "2025-06-01") -> Table:
        """The presets (docs/sources.md#fide-b02, F9) under both rules, computed by the package."""
        rows = []
        for preset in cls.presets.values():
            m = cls(on=on, **preset)
            new, old = m.first_rating("2024"), m.first_rating("2022")
            rows.append(
                (
                    f"{fmt_plain(sum(m.scores))} / {len(m.scores)}",
                    ", ".join(map(str, m.opponents)),
                    new.average_opponent,
                    new.score_fraction,
                    new.dp,
                    new.rating,
                    _("yes") if new.published else _("no"),
                    old.rating,
                    m.performance(),
                )
            )
        return Table(
            (
                _("Score"),
                _("Opponents"),
                "Ra",
                "p",
                "dp",
                _("First rating"),
                _("Published"),
                _("2022 rule"),
                _("Performance"),
            ),
            rows,
            _("Worked examples (fixed: three events ending on {on})").format(on=on),
            (None, None, "{:.2f}", "{:.2f}", "{:+d}", None, None, None, "{:.0f}"),
        )

    @staticmethod
    def table_8_1_1() -> Table:
        """Table 8.1.1 (all 101 rows) as a grid: p = row + column, cell = dp."""
        dp = dict(fide.TABLE_8_1_1)
        rows = [
            (
                fmt_number(tenth / 10, 2),
                *(
                    dp.get(round(tenth / 10 + k / 100, 2)) if tenth < 10 or k == 0 else None
                    for k in range(10)
                ),
            )
            for tenth in range(11)
        ]
        return Table(
            ("p", *("+" + fmt_number(k / 100, 2) for k in range(10))),
            rows,
            _(
                "FIDE table 8.1.1: fractional score p (row + column) and dp (the "
                "regulations' table, fixed)"
            ),
            source="FIDE Rating Regulations (B.02), table 8.1.1",
        )

    @depends("rating")
    def uplift_table(self, ratings=(1000, 1500, 1650, 1900, 2000, 2400)) -> Table:
        """The 1 March 2024 uplift for ``ratings`` and the model's ``rating``."""
        ratings = sorted({*ratings, self.rating})
        return Table(
            (_("Before 1 March 2024"), _("After"), _("Raised by")),
            [(r, fide.uplift_2024(r), fide.uplift_2024(r) - r) for r in ratings],
            _("The one-time uplift of 1 March 2024: R + 0.4 × (2000 − R) below 2000"),
            (None, None, "{:+d}"),
        )


class NewToFideView(DashboardView):
    """The first event's games (typed, pasted or added row by row) and the first rating under
    both rules; the uplift and the floor below."""

    docked = ("opponents", "rating")
    key_target = "ee-first-rating"

    def key_result(self) -> str:
        """The first rating under the rule in force."""
        r = self.model.first_rating()
        return (
            (
                _("First rating under the {rule} rule:").format(rule=self.model.rule_in_force())
                + f" {r.rating}"
            )
            if isinstance(r, fide.InitialRating)
            else ""
        )

    def build(self) -> list:
        self.games = widgets.Textarea(
            self.model.games_text(),
            description=_("Games"),
            rows=7,
            continuous_update=True,
            placeholder=_("1600 1, 1700 0.5, … or one game per line"),
            layout={"width": "24em"},
            style={"description_width": "4em" if language() == "en" else "initial"},
        )
        self.games.add_class("ee-field")
        self.controls["opponents"] = self._css(self.games, "opponents")  # and the scores
        self.games_error = _out("ee-error ee-games-error")
        self.games.observe(self.guard(self._typed), names="value")
        self.new_opponent = NumberField(
            _("Opponent"), 1600, lo=LOWEST, hi=fide.RATING_MAX, integer=True, width="11em"
        )
        self.new_opponent.add_class("ee-new-opponent")
        self.new_result = widgets.ToggleButtons(
            options=[("1", 1.0), ("½", 0.5), ("0", 0.0)],
            value=1.0,
            description=_("Result"),
            style={"description_width": "initial", "button_width": "3em"},
        )
        self.new_result.add_class("ee-new-result")
        wide = {} if language() == "en" else {"layout": {"width": "auto"}}
        add = widgets.Button(description=_("Add game"), **wide)
        remove = widgets.Button(description=_("Remove last"), **wide)
        add.add_class("ee-add-game")
        remove.add_class("ee-remove-game")
        add.on_click(self.guard(lambda _click: self._add()))
        remove.on_click(self.guard(lambda _click: self._add(remove=True)))
        self.date = widgets.DatePicker(
            description=_("Event ends on"),
            value=dt.date.fromisoformat(self.model.on),
            style={"description_width": "initial"},
        )
        self.date.add_class("ee-on")
        self.date.observe(self.guard(self._picked), names="value")
        self.headline, self.steps = _out("ee-first-rating"), _out("ee-note ee-arithmetic")
        self.up = _out("ee-uplift")  # the uplift and the floor
        entry = widgets.VBox(
            [self.new_opponent, self.new_result, widgets.HBox([add, remove]), self.date]
        )
        heading = html.escape(_("The uplift of 1 March 2024 and the floor"), quote=False)
        return [
            self.preset_menu(width="36em"),
            widgets.HBox([widgets.VBox([self.games, self.games_error]), entry]),
            self.headline,
            self.steps,
            widgets.HTML(f"<h3>{heading}</h3>"),
            self.slider("rating", step=10, label_width="15em" if language() == "en" else "20em"),
            self.up,
        ]

    def _typed(self, change) -> None:
        self.apply_pasted(
            self.model.parse_games, change["new"], self.games_error, ("opponents", "scores")
        )

    def _add(self, remove: bool = False) -> None:
        m, n = self.model, len(self.model.opponents)
        if (remove and n == 1) or (not remove and n == MAX_GAMES):
            self.games_error.value = html.escape(
                _("Games: there must be 1 to {most} games").format(most=MAX_GAMES)
            )
        elif remove:
            self.apply({"opponents": m.opponents[:-1], "scores": m.scores[:-1]})
        elif self.new_opponent.valid:
            self.apply(
                {
                    "opponents": [*m.opponents, self.new_opponent.value],
                    "scores": [*m.scores, self.new_result.value],
                }
            )

    def _picked(self, change) -> None:
        if change["new"] is not None:
            self.model.on = change["new"].isoformat()

    @depends(*EVENT)
    def show_games(self) -> None:
        """The games box and the date (a preset, an added game or a link), then the first
        rating under the rule in force and the other rule's."""
        m = self.model
        try:
            shown = m.parse_games(self.games.value)
        except ValueError:
            shown = None
        if shown != (m.opponents, m.scores):  # a preset, an added game or a link
            self.games.value, self.games_error.value = m.games_text(), ""
        if self.date.value != dt.date.fromisoformat(m.on):
            self.date.value = dt.date.fromisoformat(m.on)
        rule = m.rule_in_force()
        other_rule = next(x for x in RULES if x != rule)
        r, o = self._rated(rule), self._rated(other_rule)
        if isinstance(o, fide.InitialRating):
            other = _("{rating} (capped)").format(rating=o.rating) if o.capped else str(o.rating)
            if not o.published:
                other = _("{rating}, not published").format(rating=other)
        else:
            other = _("cannot: {reason}").format(reason=o)
        other = (
            f"<span class='ee-other-rule'>{_html(_(RULES[other_rule]))}: "
            f"{html.escape(other)}</span>"
            "<br>"
            + value_html(
                _("Performance rating"), fmt_number(m.performance(), 0), css="ee-performance-value"
            )
        )
        if not isinstance(r, fide.InitialRating):  # e.g. an opponent below the rule's floor
            self.headline.value = (
                "<span class='ee-error'>"
                + _html(_("First rating under the {rule} rule: cannot: {reason}")).format(
                    rule=rule, reason=html.escape(r)
                )
                + f"</span><br>{other}"
            )
            self.steps.value = ""
            return
        verdict = (
            _html(_("yes"))
            if r.published
            else _html(_("no — {reason}"))
            .replace("—", "&mdash;")
            .format(reason=html.escape(r.reason))
        )
        self.headline.value = (
            value_html(
                _("First rating under the {rule} rule:").format(rule=rule),
                str(r.rating),
                big=True,
                css="ee-first-value",
            )
            + (" " + _html(_("(capped)"))) * r.capped
            + "<br>"
            + _html(_("Published:"))
            + f" <span class='ee-verdict'>{verdict}</span><br>"
            + _html(
                _("Games against rated opponents: {games} of at least {least}, {needed}")
            ).format(
                games=r.games,
                least=fide.MIN_RATED_GAMES,
                needed="<span class='ee-needed'>"
                + _html(_("{count} more needed").format(count=r.games_needed))
                + "</span>",
            )
            + f"<br>{other}"
        )
        self.steps.value = html.escape(r.text)

    @depends("rating", "on")
    def show_uplift(self) -> None:
        m, up = self.model, self.model.uplift()
        self.up.value = (
            value_html(
                _("{rating} before 1 March 2024 became").format(rating=m.rating),
                str(up),
                big=True,
                css="ee-uplift-value",
            )
            + f" ({fmt_signed(up - m.rating, 0)})"
            "<br>"
            + _html(_("On {on} the list starts at {floor}.")).format(
                on=m.on, floor=f"<b class='ee-floor-value'>{m.floor()}</b>"
            )
        )

    def _rated(self, rule: str) -> fide.InitialRating | str:
        """The first rating under ``rule``, or why the games cannot be rated under it."""
        try:
            return self.model.first_rating(rule)
        except ValueError as exc:
            return str(exc)
