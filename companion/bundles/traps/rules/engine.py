"""Mage Knight 3D Dungeons traps (``traps``): virtual trap dials, exposing, triggering, disarming.

A rotary encoder stands in for each trap square's secret dial. Whoever exposes a square
reads it on their own screen only; a triggered trap is shown on every screen; a disarmed
trap earns the disarming seat its XP. Rulings: docs/rulings.md, events: docs/table-log.md.

Example::

    game = Traps(["Ann", "Bob"], seed=3, options={"dials": {"T1": ["start", "x",
        {"trap": "spiked-pit", "disarm": 7, "xp": 10}]}})
    game.apply({"type": "expose", "seat": 0, "square": "T1", "clicks": 2})
    game.view(0)["squares"]["T1"]["reading"]   # Ann sees the Spiked Pit
    game.view(None)["squares"]["T1"]           # everyone else: {"status": "exposed", ...}
    game.apply({"type": "disarm", "seat": 0, "square": "T1", "mode": "quick", "dice": [3, 5]})
    game.totals()                              # [10, 0]
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from companion.bundles.traps.rules import disarm as traps_disarm
from companion.bundles.traps.rules import view as traps_view
from companion.bundles.traps.rules.dials import (
    check_dial,
    default_catalog,
    draw_dial,
    land,
    reading_at,
)
from companion.bundles.traps.rules.dungeon import floor_squares, placement_problems
from companion.bundles.traps.rules.moves import (
    jaws_counterattack,
    passage_triggers,
    shockwave_triggers,
)
from companion.bundles.traps.rules.options import (  # noqa: F401 (re-exported)
    CLEAR,
    DISARMED,
    EVENTS,
    EXPOSED,
    HIDDEN,
    OPTIONS,
    TRIGGERED,
    Attempt,
)
from companion.errors import OptionError, RuleViolation
from companion.games.base import Field, Game
from companion.i18n import _, ngettext, translated


class Traps(Game):
    """The trap squares of one Mage Knight 3D Dungeons game. See the module docstring."""

    name = "traps"
    title = "Mage Knight 3D Dungeons traps"
    PLAYED = ("Trap squares hide a dial: a hero who exposes one turns it a number of clicks "
              "and reads it through the red filter, keeping it to themself. Walking onto it "
              "may trigger it (its effect hurts or holds the figure); a hero may try to "
              "disarm an exposed or triggered trap with two dice, quickly or slowly (slow "
              "adds a bonus), and earns its XP on a success.")
    COMPANION = ("Stands in for the dials: the rotary encoder turns a virtual dial per trap "
                 "square, and the exposing seat reads it on its own screen only. It applies "
                 "triggers, quick and slow disarms, variable disarm numbers, XP and every "
                 "trap's effect, shows a trap that goes off to the whole table, and checks "
                 "the trap pool and placement when a dungeon grid is given.")
    min_seats = 2
    max_seats = 8
    OPTIONS = OPTIONS
    EVENTS: ClassVar[dict[str, dict[str, Field]]] = EVENTS

    # --- setup -----------------------------------------------------------------------

    def setup(self) -> None:
        options = self.options
        squares = options["squares"]
        strangers = [square for square in options["dials"] if square not in squares]
        if strangers:
            raise OptionError(f"option 'dials': {', '.join(map(str, strangers))} not among the "
                              f"trap squares ({', '.join(squares)})")
        dials: dict[str, tuple[Any, ...]] = {}
        for square in squares:
            if square in options["dials"]:
                try:
                    dial = check_dial(
                        options["dials"][square], options["catalog"]["traps"], square)
                except ValueError as exc:
                    raise OptionError(f"option 'dials': {exc}") from None
            else:
                dial = draw_dial(
                    self.rng("dial", square), options["catalog"], options["dial_clicks"])
            dials[square] = tuple(MappingProxyType(position) if isinstance(position, dict)
                                  else position for position in dial)
        # Drawn once and never turned: read-only, so every copy of the state shares them.
        self.dials: Mapping[str, tuple[Any, ...]] = MappingProxyType(dials)
        if options["dungeon"] is not None:
            problems = placement_problems(
                options["dungeon"], squares, len(self.seats), options["squares_per_trap"],
                options["trap_spacing"], options["dead_end_distance"])
            if problems:
                raise OptionError(f"option 'dungeon': {'; '.join(problems)}")
        self.squares: dict[str, dict[str, Any]] = {square: {
            "position": 0, "status": HIDDEN, "read_by": {}, "exposed_by": [], "triggers": [],
            "fixed_disarm": {}, "prisoner": None, "released": None, "disarmed_by": None,
            "figure_gone": False,
        } for square in squares}
        self.xp: list[int] = [0] * len(self.seats)
        # Every disarm tried at the table, in order: a tuple, shared by copies of the state.
        self.attempts: tuple[Attempt, ...] = ()
        self.step = 0
        self.last = ""
        self.note: dict[str, Any] = {"seat": None, "text": ""}
        # The trap that went off with the latest event: public, shown until the next one.
        self.sprung: dict[str, Any] | None = None

    def handle(self, event: dict[str, Any]) -> None:
        self.sprung = None  # shown until the next event
        super().handle(event)

    # --- helpers ---------------------------------------------------------------------

    def _disarm_status_refusal(self, square: str) -> RuleViolation | None:
        """A disarm the square's public status already rules out (hidden, disarmed, clear)."""
        return traps_disarm.status_refusal(self, square)

    def refuse_early(self, partial: Mapping[str, Any]) -> RuleViolation | None:
        # Only the square's public status: the dial's reading must not decide it early.
        square = partial.get("square")
        if partial.get("type") != "disarm" or square not in self.squares:
            return None
        return self._disarm_status_refusal(square)

    def events_now(self, seat: int) -> list[str]:
        """No turns: a type any square's public state still allows, for every seat (an
        expose of a square not yet triggered or settled, a trigger of one not settled, a
        disarm of one exposed or triggered, a counterattack on a Jaws of Doom in play)."""
        found: set[str] = set()
        for square, state in self.squares.items():
            status = state["status"]
            if status in (HIDDEN, EXPOSED):
                found.update(("expose", "trigger"))
            if self._disarm_status_refusal(square) is None:
                found.add("disarm")
            if status == TRIGGERED:
                trap = self.reading_of(square)
                if not self.trap_of(trap)["triggers_once"]:
                    found.add("trigger")
                if trap["trap"] == "jaws-of-doom" and not state["figure_gone"]:
                    found.add("counterattack")
        return [kind for kind in self.EVENTS if kind in found]

    def roll_die(self, what: str) -> int:
        """A d6 the companion rolls for ``what`` (the same for the same step on every replay)."""
        return self.rng("roll", self.step, what).randint(1, 6)

    def square_of(self, event: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """The event's trap square and its state, or the rule refusing an unknown square."""
        square = event["square"]
        if square not in self.squares:
            raise RuleViolation("unknown-square", _("there is no trap square {square!r} "
                                                  "(squares: {squares})")
                                                  .format(square=square,
                                                          squares=", ".join(self.squares)))
        return square, self.squares[square]

    def reading_of(self, square: str) -> str | dict[str, Any]:
        """What the square's dial reads now: "x" (no trap) or its reading."""
        return reading_at(self.dials[square], self.squares[square]["position"])

    def trap_of(self, reading: dict[str, Any]) -> dict[str, Any]:
        """The catalogue's trap a reading names."""
        return self.options["catalog"]["traps"][reading["trap"]]

    def _clicks(self, event: dict[str, Any], action: str) -> int:
        if "clicks" in event:
            if event["clicks"] < 1:
                raise RuleViolation(f"{action}-clicks", _("the dial turns at least 1 click "
                                                        "counter-clockwise, got {clicks}")
                                                        .format(clicks=event['clicks']))
            return event["clicks"]
        if self.options["companion_rolls"]:
            return self.roll_die("clicks")
        raise RuleViolation(f"{action}-clicks", _("to {action} {square} give clicks: "
                                                "the d6 rolled to turn its dial")
                                                .format(action=action, square=event['square']))

    def _turn(self, square: str, seat: int, clicks: int) -> None:
        """The expose procedure: turn the dial; the seat alone reads where it lands."""
        state = self.squares[square]
        state["position"] = land(self.dials[square], state["position"], clicks)
        state["read_by"][str(seat)] = state["position"]
        if seat not in state["exposed_by"]:
            state["exposed_by"].append(seat)

    def who(self, seat: int) -> str:
        """The seat's name, as the engine's words say it."""
        return self.seats[seat]

    def _describe(self, reading: str | dict[str, Any], fixed: int | None = None
                  ) -> dict[str, Any]:
        """A reading as a screen shows it."""
        return traps_view.describe(self, reading, fixed)

    def _reading_text(self, square: str, reading: str | dict[str, Any]) -> str:
        if reading == "x":
            return _("{square} reads X: no trap").format(square=square)
        described = self._describe(reading)
        return _("{square} reads {trap}: disarm {disarm}, {xp} XP").format(
            square=square, trap=described["name"], disarm=described["disarm"], xp=described["xp"])

    # --- events ----------------------------------------------------------------------

    def on_expose(self, event: dict[str, Any]) -> None:
        self.step += 1
        square, state = self.square_of(event)
        seat = event["seat"]
        refusals = {
            DISARMED: ("expose-disarmed", _("{square} is disarmed: its dial stays at the "
                                            "disarmed mark")),
            CLEAR: ("expose-clear", _("{square} is clear terrain for the rest of the game")),
            TRIGGERED: ("expose-triggered", _("{square} has been triggered: its trap is "
                                              "already on every screen")),
        }
        if state["status"] in refusals:
            rule, message = refusals[state["status"]]
            raise RuleViolation(rule, message.format(square=square))
        clicks = self._clicks(event, "expose")
        self._turn(square, seat, clicks)
        reading = self.reading_of(square)
        shown_clear = reading == "x" and self.options["reveal_exposed_x"]
        state["status"] = CLEAR if shown_clear else EXPOSED
        self.last = (_("{player} exposed {square}: X, clear terrain") if shown_clear
                     else _("{player} exposed {square}")).format(player=self.who(seat),
                                                                 square=square)
        self.note = {"seat": seat, "text": self._reading_text(square, reading)}

    def on_trigger(self, event: dict[str, Any]) -> None:
        self.step += 1
        square, state = self.square_of(event)
        seat = event["seat"]
        if state["status"] == DISARMED:
            raise RuleViolation("trigger-disarmed", _("{square} is disarmed: figures pass it "
                                                    "safely").format(square=square))
        if state["status"] == CLEAR:
            raise RuleViolation("trigger-clear", _("{square} is clear terrain for the rest of "
                                                 "the game").format(square=square))
        if state["status"] == HIDDEN:
            self._turn(square, seat, self._clicks(event, "trigger"))
        elif "clicks" in event:
            raise RuleViolation("trigger-clicks", _("{square} was exposed already: a trigger "
                                                  "does not turn its dial, leave out clicks")
                                                  .format(square=square))
        reading = self.reading_of(square)
        if reading == "x":
            state["status"] = CLEAR
            self.last = _("{player} triggered {square}: X, clear").format(
                player=self.who(seat), square=square)
            self.note = {"seat": None, "text": ""}
            return
        trap = self.trap_of(reading)
        if state["status"] == TRIGGERED and trap["triggers_once"]:
            raise RuleViolation("trigger-once", _("the {trap} on {square} triggers "
                                                "only once and already has")
                                                .format(trap=translated(trap["name"]),
                                                        square=square))
        self.spring(square, seat, _("{player} triggered {square}: {trap}"))

    def spring(self, square: str, seat: int, how: str) -> None:
        """The trap goes off on ``seat``: public on every screen from now on."""
        state = self.squares[square]
        trap = self.trap_of(self.reading_of(square))
        damage = trap["damage"]
        if damage == "1d6" and self.options["companion_rolls"]:
            damage = self.roll_die("damage")
        if trap["imprisons"] and state["prisoner"] is None:
            state["prisoner"] = seat
        state["triggers"].append({"seat": seat, "damage": damage})
        state["status"] = TRIGGERED
        state["figure_gone"] = False
        name = translated(trap["name"])
        # A damage of "1d6" (rolled at the table) reads as a plural.
        count = damage if isinstance(damage, int) else 2
        hurt = (ngettext("{n} click of damage", "{n} clicks of damage", count).format(n=damage)
                if damage else _("imprisoned") if trap["imprisons"] else _("no direct damage"))
        self.last = how.format(player=self.who(seat), square=square, trap=name)
        self.note = {"seat": None, "text": ""}
        self.sprung = {"square": square, "seat": seat, "name": name, "hurt": hurt,
                       "effect": translated(trap["effect"])}

    def on_disarm(self, event: dict[str, Any]) -> None:
        """A disarm with two dice, quick or slow (traps_disarm.disarm)."""
        traps_disarm.disarm(self, event)

    def on_counterattack(self, event: dict[str, Any]) -> None:
        """A counterattack on a triggered Jaws of Doom (traps_disarm.counterattack)."""
        traps_disarm.counterattack(self, event)

    # --- views -----------------------------------------------------------------------

    def _public_square(self, square: str) -> dict[str, Any]:
        return traps_view.public_square(self, square)

    def view(self, seat: int | None) -> dict[str, Any]:
        return traps_view.view(self, seat)

    def referee_view(self) -> dict[str, Any]:
        return traps_view.referee_view(self)

    def settled(self, square: str) -> bool:
        """Nothing more can change ``square`` for good: disarmed, clear, or past disarming."""
        status = self.squares[square]["status"]
        if status == TRIGGERED:
            return not self.trap_of(self.reading_of(square))["disarm_after_trigger"]
        return status in (DISARMED, CLEAR)

    @property
    def finished(self) -> bool:
        """Every square settled, as everyone can see (an exposed X keeps the game going)."""
        return all(self.settled(square) for square in self.squares)

    def totals(self) -> list[int]:
        return list(self.xp)

    def rounds(self) -> list[list[int]]:
        return []

    # --- after the game --------------------------------------------------------------

    FIGURES_TITLE = "Traps: disarms made / tried; XP per trap"

    @classmethod
    def figures_in_words(cls, mine: Mapping[str, Any]) -> str:
        # Each trap by its name (the shipped catalog's: the league sums every game's), as the
        # screens name it: "Fire Jets 30", not its id.
        traps = default_catalog()["traps"]
        named = sorted((translated(traps[kind]["name"]) if kind in traps else kind, xp)
                       for kind, xp in mine["xp_by_trap"].items())
        kinds = ", ".join(f"{name} {xp}" for name, xp in named)
        made = f"{mine['disarms_made']} / {mine['disarms_tried']}"
        return made + (f"; {kinds}" if kinds else "")

    def figures(self) -> dict[str, list[Any]]:
        """Per seat: disarms tried and made, and XP per trap kind (see traps_view.figures)."""
        return traps_view.figures(self)

    def score_track(self) -> list[list[int]]:
        """XP after each disarm that earned some (traps has no rounds)."""
        return traps_view.score_track(self)

    def state_in_words(self, state: dict[str, Any]) -> list[str]:
        return traps_view.state_in_words(self, state)

    def armed_in_public(self, square: str) -> bool:
        """Whether a figure moving onto ``square`` may set it off, from what all may know."""
        status = self.squares[square]["status"]
        if status == TRIGGERED:
            return not self.trap_of(self.reading_of(square))["triggers_once"]
        return status in (HIDDEN, EXPOSED)

    def passage_triggers(self, square: str, how: str, *, roll: int | None = None,
                         nimble: bool = False, flying: bool = False) -> bool:
        """Whether a move (``through``, ``end`` or ``diagonal``) sets ``square`` off."""
        if square not in self.squares:
            raise RuleViolation("unknown-square", _("there is no trap square {square!r}")
                                                    .format(square=square))
        return self.armed_in_public(square) and passage_triggers(
            how, roll=roll, nimble=nimble, flying=flying,
            trigger_max=self.options["diagonal_trigger_max"])

    def shockwave_triggers(self, square: str, attack: int, dice: list[int]) -> bool:
        """Whether a Shockwave attack (attack value + 2d6) sets ``square`` off."""
        if square not in self.squares:
            raise RuleViolation("unknown-square", _("there is no trap square {square!r}")
                                                    .format(square=square))
        hits = shockwave_triggers(attack, dice, self.options["shockwave_defence"])
        return self.armed_in_public(square) and hits

    def jaws_counterattack(self, attack: int, dice: list[int], damage: int) -> dict[str, Any]:
        """How a counterattack on a triggered Jaws of Doom ends (see traps_moves)."""
        jaws = self.options["catalog"]["traps"]["jaws-of-doom"]["attack"]
        return jaws_counterattack(jaws, attack, dice, damage)

    def trap_pool(self) -> int | None:
        """Traps each player may put in the pool (None when no dungeon grid is given)."""
        dungeon = self.options["dungeon"]
        if dungeon is None:
            return None
        return floor_squares(dungeon) // self.options["squares_per_trap"]
