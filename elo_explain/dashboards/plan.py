"""Dashboard 11, "What do I need?": the least score that reaches a target rating (FIDE), the
wins in a row and the games at a win rate that reach it (Gammon42), the stakes of the next
game, and a season rated period by period.

The rules are :mod:`elo_explain.fide` (``least_score``, ``stakes``, ``rate_season``,
``k_factor_rule``) and :mod:`elo_explain.gammon42` (``wins_to_reach``, ``stakes``,
``expected_change``, ``hold_win_rate``, ``games_at_win_rate``); a season's periods are read
with the games parser of dashboard 10 (:meth:`NewToFideModel.parse_games`), one period a line.

>>> m = PlanModel()
>>> m.fide_plan().points, m.fide_plan().rating     # 9 games at 1800 vs 1800, K 20: 7 → +50
(7.0, 1850.0)
>>> PlanModel.parse_season("2026-01-10: 1750 1, 1820 ½\\n1900 0")
[('2026-01-10', [(1750, 1.0), (1820, 0.5)]), (None, [(1900, 0.0)])]
>>> PlanModel.parse_season("1750 1\\n1700 2")
Traceback (most recent call last):
...
ValueError: Season, period 2: Games, row 1 ('1700 2'): the result must be 1 (win), 0.5 or ½ (draw), 0 (loss), got '2'
"""

from __future__ import annotations

import datetime as dt
import html
import re

import ipywidgets as widgets
import traitlets
from matplotlib import ticker

from elo_explain import elo, fide
from elo_explain import gammon42 as g42
from elo_explain.dashboards.new_to_fide import NewToFideModel
from elo_explain.formats import fmt_pct, fmt_plain, fmt_signed
from elo_explain.i18n import N_, _, language, ngettext
from elo_explain.interactive.chess import K_TRAITS, ProfileK, period_options, period_trait
from elo_explain.interactive.figures import FigureView, steady_limits, update_limits
from elo_explain.interactive.live import depends
from elo_explain.interactive.model import DashboardModel
from elo_explain.interactive.page import html_box
from elo_explain.interactive.traits import Choice, FieldError, Number, Whole
from elo_explain.interactive.view import DashboardView
from elo_explain.tables import Sentence, Table

__all__ = ["PlanModel", "PlanView"]

SYSTEMS = {"fide": N_("FIDE (chess)"), "gammon42": N_("Gammon42 (backgammon)")}
MAX_PERIODS = 50
MAX_SHOWN_WINS = 30
#: What FIDE's K comes from: the choice, or the player's profile (as on 01), and the date.
FIDE_PLAN = (*K_TRAITS, "n_games", "average", "target")
G42 = ("rating", "opponent", "recent_games", "cube")
SEASON = ("season", "rating", "rated_games", "birth_year", "reached_2400", "on")
_DATE = re.compile(r"^\s*(\d{4}-\d{2}-\d{2})\s*:?\s*(.*)$", re.S)


def _rating(default, label, hi=fide.RATING_MAX):
    return Whole(default, fide.FLOOR_BEFORE_2024, hi, label=label)


class PlanModel(ProfileK, DashboardModel):
    """The player (``rating``; FIDE's ``k`` or the profile ``rated_games``, ``birth_year``,
    ``reached_2400``, on the date ``on``), the goal (``target``), an event (``n_games``
    against ``average``), a Gammon42 opponent (``opponent``, ``recent_games``, ``cube``,
    ``win_rate`` in %) and a ``season`` (periods, one a line)."""

    params = (
        "system",
        "rating",
        "k",
        "rated_games",
        "birth_year",
        "reached_2400",
        "on",
        "n_games",
        "average",
        "target",
        "opponent",
        "recent_games",
        "cube",
        "win_rate",
        "season",
    )
    presets = {
        N_("FIDE: 1500 against 1000, 10 games, to 1507 (table and formula differ)"): {
            "system": "fide",
            "rating": 1500,
            "k": 20,
            "n_games": 10,
            "average": 1000,
            "target": 1507,
        },
        N_("Gammon42: 49 games this week, 1500 to 1530 (K 16 from the second win)"): {
            "system": "gammon42",
            "rating": 1500,
            "opponent": 1500,
            "target": 1530,
            "recent_games": 49,
            "cube": 1,
        },
    }

    # (the system's toggles have no label: 07's table's word for it)
    system = traitlets.Enum(list(SYSTEMS), default_value="fide").tag(label=N_("System"))
    rating = _rating(1800, N_("Your rating"))
    #: the K-factors the dropdown offers, and FIDE's rule for the profile: a link's K 25 would
    #: be computed with but shown as another K (01's typed K has its own box; 11 has none)
    k = Choice(20, (*elo.K_CHOICES, "profile"), label="K")
    rated_games = Whole(80, 0, 1000, label=N_("Rated games"))
    birth_year = Whole(1995, 1900, 2025, label=N_("Birth year"))
    reached_2400 = traitlets.Bool(False).tag(label=N_("The published rating has reached 2400"))
    on = period_trait().tag(label=N_("Rating period"))
    n_games = Whole(9, 1, fide.MAX_PLAN_GAMES, label=N_("Games in the event"))
    average = _rating(1800, N_("Opponents' average"))
    target = _rating(1850, N_("Target rating"), fide.RATING_MAX + 400)
    opponent = _rating(1500, N_("Opponent"))
    recent_games = Whole(0, 0, 1000, label=N_("Ranked games in the last 7 days"))
    cube = Choice(1, g42.CUBE_VALUES, label=N_("Cube"))
    win_rate = Number(70.0, 0.0, 100.0, label=N_("Your win rate (%)"))
    season = traitlets.Unicode(
        "2026-01-10: 1750 1, 1820 0.5, 1900 0\n"
        "2026-03-01: 1700 1, 1780 1, 1850 0.5, 1800 0\n"
        "1760 1, 1810 0.5"
    ).tag(label=N_("Season"))

    @traitlets.validate("season")
    def _check_season(self, proposal):
        try:
            self.parse_season(proposal["value"])
        except (TypeError, ValueError) as exc:
            raise FieldError(str(exc)) from None
        return proposal["value"]

    # --- the season as text ------------------------------------------------------------------
    @staticmethod
    def parse_season(text: str) -> list:
        """Periods from text, one a line: an optional date ``YYYY-MM-DD:`` (from 1 March 2024;
        a line without one keeps the previous period's), then the period's games as the games
        box of dashboard 10 reads them ("1750 1, 1820 ½"). ``ValueError`` names the period,
        and the row as 10's box does."""
        lines = [line for line in (text or "").splitlines() if line.strip()]
        if not 1 <= len(lines) <= MAX_PERIODS:
            raise ValueError(
                _("Season: there must be 1 to {most} periods, one per line, got {count}").format(
                    most=MAX_PERIODS, count=len(lines)
                )
            )
        periods = []
        for i, line in enumerate(lines, 1):
            dated = _DATE.match(line)
            day, games = (dated.group(1), dated.group(2)) if dated else (None, line)
            try:
                if day is not None:
                    try:
                        when = dt.date.fromisoformat(day)
                    except ValueError:
                        when = None
                    if when is None or not fide.RULES_FROM <= when <= dt.date(2099, 12, 31):
                        raise ValueError(
                            _(
                                "the date must be a date YYYY-MM-DD from {first} to "
                                "2099-12-31, got {value}"
                            ).format(first=fide.RULES_FROM, value=repr(day))
                        )
                opponents, scores = NewToFideModel.parse_games(games)
            except ValueError as exc:
                raise ValueError(_("Season, period {n}: {error}").format(n=i, error=exc)) from None
            periods.append((day, list(zip(opponents, scores))))
        return periods

    # --- FIDE -------------------------------------------------------------------------------
    @depends(*FIDE_PLAN)
    def fide_plan(self, use_table: bool = True) -> fide.LeastScore:
        return fide.least_score(
            self.rating,
            self.k_base,
            self.n_games,
            self.average,
            self.target,
            on=self.on,
            use_table=use_table,
        )

    @depends(*FIDE_PLAN)
    def fide_table(self) -> Table:
        """The least score by table 8.1.2 and by the ÷400 formula, half a point less, and the
        highest rating reachable."""
        rows = []
        for use_table, method in ((True, _("FIDE: table 8.1.2")), (False, _("÷400 formula"))):
            p = self.fide_plan(use_table)
            rows.append(
                (
                    method,
                    p.points if p.reachable else _("out of reach"),
                    p.rating,
                    p.points_below,
                    p.rating_below,
                    p.best_rating,
                    p.k,
                )
            )
        return Table(
            (
                _("Method"),
                _("Least score"),
                _("Rating it gives"),
                _("½ point less"),
                _("Rating then"),
                _("Every game won"),
                _("K used"),
            ),
            rows,
            ngettext(
                "To reach {target} from {rating}: {games} game against an average of {average}",
                "To reach {target} from {rating}: {games} games against an average of {average}",
                self.n_games,
            ).format(
                target=self.target, rating=self.rating, games=self.n_games, average=self.average
            ),
            (None, "{:g}", "{:.0f}", "{:g}", "{:.0f}", "{:.0f}", "{:g}"),
        )

    @depends(fide_table)
    def fide_answer(self) -> Sentence:
        """The least score in words, the formula's beside it when it differs."""
        p, f = self.fide_plan(), self.fide_plan(False)
        of = self.n_games
        if not p.reachable:
            text = _("Out of reach: even {games} / {games} gives {best}.").format(
                games=of, best=fmt_plain(p.best_rating)
            )
        elif p.points_below is None:
            text = _("Already there: 0 / {games} still gives {rating}.").format(
                games=of, rating=fmt_plain(p.rating)
            )
        else:
            text = _(
                "You need {points} / {games} (rating {rating}); {below} gives {rating_below}."
            ).format(
                points=fmt_plain(p.points),
                games=of,
                rating=fmt_plain(p.rating),
                below=fmt_plain(p.points_below),
                rating_below=fmt_plain(p.rating_below),
            )
        if f.points != p.points:
            text += " " + (
                _("The ÷400 formula would say {points} / {games}.").format(
                    points=fmt_plain(f.points), games=of
                )
                if f.reachable
                else _("By the ÷400 formula it would be out of reach.")
            )
        return Sentence(text, p.points)

    @depends(*K_TRAITS, "average")
    def fide_stakes(self) -> Table:
        """The next game against ``average``: the change for a win, a draw and a loss."""
        s = fide.stakes(self.rating, self.k_base, self.average, on=self.on)
        rows = [
            (_(name), change, self.rating + change)
            for name, change in ((N_("Win"), s.win), (N_("Draw"), s.draw), (N_("Loss"), s.loss))
        ]
        return Table(
            (_("Result"), _("Change"), _("New rating")),
            rows,
            _("The next game against {opponent} (E {e}, K {k})").format(
                opponent=self.average, e=fmt_plain(s.expected), k=self.k_base
            ),
            (None, "{:+d}", None),
        )

    # --- Gammon42 --------------------------------------------------------------------------
    @depends(*G42, "target")
    def gammon_plan(self) -> g42.Plan:
        return g42.wins_to_reach(
            self.rating, self.opponent, self.target, self.recent_games, self.cube
        )

    @depends(gammon_plan)
    def gammon_table(self) -> Table:
        """The wins in a row to the target, one row a win (the first 30)."""
        p = self.gammon_plan()
        rows = [
            (i, self.recent_games + i - 1, k, r - before, r)
            for i, (k, r, before) in enumerate(zip(p.ks, p.ratings, (self.rating, *p.ratings)), 1)
        ][:MAX_SHOWN_WINS]
        if not p.ratings:
            caption = _("Gammon42: {rating} is already at {target}").format(
                rating=self.rating, target=self.target
            )
        elif p.reachable:
            caption = (
                ngettext(
                    "Gammon42: {wins} win in a row against {opponent} reaches "
                    "{target} (cube {cube})",
                    "Gammon42: {wins} wins in a row against {opponent} reach "
                    "{target} (cube {cube})",
                    p.games,
                )
                if p.games > 1
                else _("Gammon42: one win against {opponent} reaches {target} (cube {cube})")
            ).format(wins=p.games, opponent=self.opponent, target=self.target, cube=self.cube)
        else:
            caption = _(
                "Gammon42: out of reach against {opponent}: the wins stop moving the "
                "rating at {best}"
            ).format(opponent=self.opponent, best=fmt_plain(p.ratings[-1]))
        if len(p.ratings) > MAX_SHOWN_WINS:
            caption += " " + _("(the first {shown} of {all})").format(
                shown=MAX_SHOWN_WINS, all=len(p.ratings)
            )
        return Table(
            (_("Win"), _("Games in the 7 days before"), "K", _("Change"), _("Rating")),
            rows,
            caption,
            (None, None, None, "{:+d}", None),
        )

    @depends(*G42)
    def gammon_stakes(self) -> g42.Stakes:
        return g42.stakes(self.rating, self.opponent, self.recent_games, self.cube)

    @depends(*G42, "target", "win_rate")
    def win_rate_table(self) -> Table:
        """At the reader's win rate: the expected change a game, the games to the target, and
        the win rate that holds the rating."""
        s, p = self.gammon_stakes(), self.win_rate / 100
        change = g42.expected_change(self.rating, self.opponent, p, self.recent_games, self.cube)
        hold = 100 * g42.hold_win_rate(self.rating, self.opponent, self.recent_games, self.cube)
        plan = g42.games_at_win_rate(
            self.rating, self.opponent, self.target, p, self.recent_games, self.cube
        )
        games = plan.games if plan.reachable else _("out of reach")
        return Table(
            (
                _("Win"),
                _("Loss"),
                _("Your win rate"),
                _("Expected change a game"),
                _("Games to the target"),
                _("Win rate to hold"),
            ),
            [(s.win, s.loss, self.win_rate, change, games, hold)],
            _("Gammon42 against {opponent} (K {k}, cube {cube})").format(
                opponent=self.opponent, k=s.k, cube=self.cube
            ),
            ("{:+d}", "{:+d}", fmt_pct, "{:+.2f}", None, fmt_pct),
        )

    # --- the season --------------------------------------------------------------------------
    @depends(*SEASON)
    def season_periods(self) -> tuple:
        periods = self.parse_season(self.season)
        return fide.rate_season(
            periods,
            self.rating,
            self.rated_games,
            birth_year=self.birth_year,
            reached_2400=self.reached_2400,
            on=self.on,
        )

    @depends(season_periods)
    def season_table(self) -> Table:
        """The season period by period: K from the profile at each start, the 700 rule."""
        rows = [
            (
                i,
                p.on.isoformat(),
                p.games,
                p.points,
                p.rating,
                p.k,
                p.k_used,
                p.change,
                p.new_rating,
            )
            for i, p in enumerate(self.season_periods(), 1)
        ]
        return Table(
            (
                _("Period"),
                _("Date"),
                _("Games"),
                _("Points"),
                _("Rating before"),
                "K",
                _("K after the 700 rule"),
                _("Change"),
                _("Rating after"),
            ),
            rows,
            ngettext(
                "Your season from {rating} ({games} rated game before)",
                "Your season from {rating} ({games} rated games before)",
                self.rated_games,
            ).format(rating=self.rating, games=self.rated_games),
            (None, None, None, "{:g}", "{:.0f}", None, "{:g}", "{:+d}", "{:.0f}"),
        )


class PlanView(DashboardView):
    """The system, the player and the goal; the answer and the stakes of the next game; the
    season's box and its figure (the tables are the notebook's cells above the view)."""

    title = "What do I need?"
    notebook = "11_plan.ipynb"
    docked = ("rating", "target", "n_games", "average", "opponent", "win_rate", "system")
    key_target = "ee-answer"

    def key_result(self) -> str:
        """The answer in a few words: the least score of the event (FIDE) or the wins in a row
        (Gammon42), as the view's answer says it."""
        m = self.model
        if m.system == "fide":
            p, games = m.fide_plan(), m.n_games
            if not p.reachable:
                return _("Out of reach: even {games} / {games} gives {best}.").format(
                    games=games, best=fmt_plain(p.best_rating)
                )
            if p.points_below is None:
                return _("Already there: 0 / {games} still gives {rating}.").format(
                    games=games, rating=fmt_plain(p.rating)
                )
            return _("You need {points} / {games} (rating {rating})").format(
                points=fmt_plain(p.points), games=games, rating=fmt_plain(p.rating)
            )
        p = m.gammon_plan()
        if not p.ratings:
            return _("Already there.")
        if not p.reachable:
            return _("Out of reach in wins: they stop at {best}").format(
                best=fmt_plain(p.ratings[-1])
            )
        return ngettext(
            "{wins} win in a row to {target}", "{wins} wins in a row to {target}", p.games
        ).format(wins=p.games, target=m.target)

    def build(self) -> list:
        m = self.model
        wide = "15em" if language() == "en" else "20em"
        self.answer = html_box("ee-answer")
        self.stakes_line = html_box("ee-stakes")
        k_options = [
            *((f"K {k}", k) for k in elo.K_CHOICES),
            (_("From a player profile"), "profile"),
        ]
        self.profile_box = widgets.VBox(
            [
                self.slider("rated_games", step=1, label_width=wide),
                self.number("birth_year"),
                self.checkbox("reached_2400", label=_("The published rating has reached 2400")),
            ]
        )
        self.fide_box = widgets.VBox(
            [
                self.dropdown("k", k_options, label="K", width="22em"),
                self.profile_box,
                self.slider("n_games", label_width=wide),
                self.slider("average", step=10, label_width=wide),
                self.dropdown("on", period_options(), label=_("Rating period")),
            ]
        )
        self.g42_box = widgets.VBox(
            [
                self.slider("opponent", step=10, label_width=wide),
                self.slider("recent_games", label_width=wide),
                self.dropdown("cube", list(g42.CUBE_VALUES), width="12em"),
                self.slider("win_rate", step=0.5, label_width=wide),
            ]
        )
        self.season_box = widgets.Textarea(
            m.season,
            description=_("Season"),
            rows=6,
            continuous_update=True,
            placeholder=_("2026-01-10: 1750 1, 1820 0.5 — one period per line"),
            layout={"width": "36em"},
            style={"description_width": "5em" if language() == "en" else "initial"},
        )
        self.season_box.add_class("ee-field")
        self.season_box.add_class("ee-season")
        self.season_error = html_box("ee-error ee-season-error", width="auto")
        self.season_box.observe(self.guard(self._typed), names="value")
        self.season_line = html_box("ee-season-summary")
        self.figure = FigureView(figsize=(8, 3.4), margins=dict(left=0.1, bottom=0.25, top=0.9))
        ax = self.figure.ax
        self.rating_line = self.figure.dynamic(
            ax.plot([], [], marker="o", color="#1a5fb4", label=_("Rating"))[0]
        )
        # the periods' labels are the view's own (not named ticks: a layout keeps those as
        # they were when it was made, and a new season's changes came out as the old ones);
        # a label every ``step`` periods, a tick at each (:meth:`_space_period_labels`)
        self.period_labels: tuple[str, ...] = ()
        self.label_step = 1
        ax.xaxis.set_major_locator(ticker.MultipleLocator(1))
        ax.xaxis.set_minor_locator(ticker.MultipleLocator(1))
        ax.xaxis.set_major_formatter(ticker.FuncFormatter(self._period_label))
        self.figure.layout_hooks.append(self._space_period_labels)
        ax.set_xlabel(_("Period (change)"))
        ax.set_ylabel(_("Rating"))
        ax.set_title(_("Your rating through the season"))
        ax.grid(alpha=0.3)
        heading = html.escape(_("A season, period by period"), quote=False)
        return [
            self.preset_menu(width="40em"),
            self.toggles("system", [(_(v), k) for k, v in SYSTEMS.items()], label=""),
            self.slider("rating", step=10, label_width=wide),
            self.slider("target", step=10, label_width=wide),
            self.fide_box,
            self.g42_box,
            self.answer,
            self.stakes_line,
            widgets.HTML(f"<h3>{heading}</h3>"),
            widgets.VBox([self.season_box, self.season_error]),
            self.season_line,
            self.figure.out,
        ]

    def _period_label(self, x, _pos) -> str:
        """The label of the tick at ``x``: "start", or the period's number over its change."""
        i = round(x)
        return (
            self.period_labels[i] if abs(x - i) < 1e-6 and 0 <= i < len(self.period_labels) else ""
        )

    def _space_period_labels(self) -> None:
        """A label every 1, 2, 5, 10, 20 or 50 periods, the fewest apart that keeps each label
        clear of the next as the labels measure in the figure's layout (50 periods printed
        their numbers and changes over one another, on a desktop as on a phone)."""
        ax, fig = self.figure.ax, self.figure.fig
        ticks = ax.xaxis.get_major_ticks()
        if not ticks or not self.period_labels:
            return
        renderer, prop = fig.canvas.get_renderer(), ticks[0].label1.get_fontproperties()
        widths = [
            max(
                renderer.get_text_width_height_descent(line, prop, ismath=False)[0]
                for line in label.split("\n")
            )
            for label in self.period_labels
        ]
        lo, hi = ax.get_xlim()
        per_period = ax.bbox.width / (hi - lo)
        gap = 6 * fig.dpi / 72  # 6 pt between two labels

        def clear(step: int) -> bool:  # labels centred on their ticks
            shown = widths[::step]
            return all((a + b) / 2 + gap <= step * per_period for a, b in zip(shown, shown[1:]))

        step = next((s for s in (1, 2, 5, 10, 20) if clear(s)), 50)
        if step != self.label_step:
            self.label_step = step
            ax.xaxis.set_major_locator(ticker.MultipleLocator(step))

    def _typed(self, change) -> None:
        self.apply_pasted(self._checked, change["new"], self.season_error, ("season",))

    def _checked(self, text: str) -> tuple[str]:
        """The typed season, once :meth:`PlanModel.parse_season` reads it (its message else)."""
        self.model.parse_season(text)
        return (text,)

    @depends("system", "k")
    def show_boxes(self) -> None:
        fide_shown = self.model.system == "fide"
        self.fide_box.layout.display = "" if fide_shown else "none"
        self.g42_box.layout.display = "none" if fide_shown else ""
        self.profile_box.layout.display = "" if self.model.k == "profile" else "none"

    @depends(
        "system",
        PlanModel.fide_answer,
        PlanModel.fide_stakes,
        PlanModel.gammon_table,
        PlanModel.win_rate_table,
    )
    def show_answer(self) -> None:
        m = self.model
        if m.system == "fide":
            s = m.fide_stakes().rows
            self.answer.value = (
                f"<p class='ee-value ee-big'>{html.escape(str(m.fide_answer()))}</p>"
            )
            self.stakes_line.value = html.escape(
                _("The next game against {opponent}: win {win}, draw {draw}, loss {loss}.").format(
                    opponent=m.average,
                    win=fmt_signed(s[0][1], 0),
                    draw=fmt_signed(s[1][1], 0),
                    loss=fmt_signed(s[2][1], 0),
                )
            )
            return
        p, s = m.gammon_plan(), m.gammon_stakes()
        if not p.ratings:
            wins = _("Already there.")
        elif p.reachable:
            wins = (
                ngettext(
                    "{wins} win in a row reaches {target} (last win: {rating}).",
                    "{wins} wins in a row reach {target} (last win: {rating}).",
                    p.games,
                )
                if p.games > 1
                else _("One win reaches {target} ({rating}).")
            ).format(wins=p.games, target=m.target, rating=fmt_plain(p.ratings[-1]))
        else:
            wins = _("Out of reach in wins against {opponent}: they stop at {best}.").format(
                opponent=m.opponent, best=fmt_plain(p.ratings[-1])
            )
        row = m.win_rate_table().rows[0]
        games = (
            _("the target is out of reach")
            if not isinstance(row[4], int)
            else ngettext(
                "the target in {games} game", "the target in {games} games", row[4]
            ).format(games=row[4])
            if row[4] > 1
            else _("the target in one game")
        )
        self.answer.value = f"<p class='ee-value ee-big'>{html.escape(wins)}</p>"
        self.stakes_line.value = html.escape(
            _(
                "The next game against {opponent} (K {k}, cube {cube}): win {win}, loss {loss}. "
                "At {rate}: {change} a game, {games}; to hold the rating: {hold}."
            ).format(
                opponent=m.opponent,
                k=s.k,
                cube=m.cube,
                win=fmt_signed(s.win, 0),
                loss=fmt_signed(s.loss, 0),
                rate=fmt_pct(m.win_rate),
                change=fmt_signed(row[3], 2),
                games=games,
                hold=fmt_pct(row[5]),
            )
        )

    @depends(PlanModel.season_table)
    def show_season(self) -> None:
        m, box = self.model, self.season_box
        try:
            shown = m.parse_season(box.value) == m.parse_season(m.season)
        except ValueError:
            shown = False
        if not shown:  # a preset or a link
            box.value, self.season_error.value = m.season, ""
        periods = m.season_periods()
        last = periods[-1]
        games = sum(p.games for p in periods)
        # TRANSLATORS: {periods} is "3 periods", {games} "12 games" (plural entries of their own)
        line = _("{periods}, {games}: {start} → {end} ({change}).")
        self.season_line.value = html.escape(
            line.format(
                periods=ngettext("{count} period", "{count} periods", len(periods)).format(
                    count=len(periods)
                ),
                games=ngettext("{count} game", "{count} games", games).format(count=games),
                start=m.rating,
                end=fmt_plain(last.new_rating),
                change=fmt_signed(last.new_rating - m.rating, 0),
            )
        )
        xs = list(range(len(periods) + 1))
        ys = [m.rating, *(p.new_rating for p in periods)]
        self.rating_line.set_data(xs, ys)
        ax = self.figure.ax
        labels = (
            _("start"),
            *(f"{i}\n({fmt_signed(p.change, 0)})" for i, p in enumerate(periods, 1)),
        )
        if labels != self.period_labels:
            self.period_labels = labels
            ax.xaxis.stale = True  # (new texts on the same ticks: the background is drawn)
        update_limits(
            ax,
            x=(-0.3, len(periods) + 0.3),
            y=steady_limits(ax.get_ylim(), min(ys) - 10, max(ys) + 10),
        )
        self.figure.refresh()
