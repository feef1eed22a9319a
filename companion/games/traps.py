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

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar

from companion.errors import OptionError, RuleViolation
from companion.games.base import Field, Game, Option, check_bool, check_int
from companion.games.traps_dials import (
    check_catalog,
    check_dial,
    default_catalog,
    draw_dial,
    land,
    parse_disarm,
    reading_at,
)
from companion.games.traps_dungeon import check_dungeon, floor_squares, placement_problems
from companion.games.traps_moves import (
    check_dice,
    jaws_counterattack,
    passage_triggers,
    shockwave_triggers,
)
from companion.i18n import _, ngettext, translated

#: Square statuses as docs/table-log.md names them.
HIDDEN, EXPOSED, TRIGGERED, DISARMED, CLEAR = "hidden", "exposed", "triggered", "disarmed", "clear"


@dataclass(frozen=True)
class Attempt:
    """One disarm tried at the table: who, where, and the XP it earned (0: it failed)."""

    seat: int
    square: str
    xp: int


def _check_squares(value: Any) -> list[str]:
    if not isinstance(value, list) or not value:
        raise ValueError("must be a non-empty list of trap square ids")
    for square in value:
        if not isinstance(square, str) or not square.strip():
            raise ValueError(f"a trap square id is a non-empty text, got {square!r}")
    if len(set(value)) != len(value):
        raise ValueError("trap square ids must be different from each other")
    return list(value)


def _check_dials(value: Any) -> dict[str, list[Any]]:
    # Positions are checked against the catalog's traps in setup, once both options are known.
    if not isinstance(value, dict):
        raise ValueError("must be an object {square: [\"start\", position, ...]}")
    for square, dial in value.items():
        if not isinstance(dial, list):
            raise ValueError(f"the dial of {square} must be a list of positions, start first")
    return value


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
    OPTIONS = (
        Option("squares", ["T1", "T2", "T3", "T4"], "the trap squares of the dungeon, by id",
               _check_squares),
        Option("dials", {}, "fixed dials {square: [\"start\", position, ...]} listed "
               "counter-clockwise; squares not listed are drawn from the catalog", _check_dials),
        Option("catalog", check_catalog(default_catalog()), "trap descriptions and the "
               "weighted readings dials are drawn from (data/traps-catalog.json, assumed)",
               check_catalog),
        Option("dial_clicks", 12, "positions on a drawn dial, the start marker included",
               check_int(2, 60)),
        Option("companion_rolls", False, "the companion rolls the dice an event leaves out "
               "(else the players enter their physical dice)", check_bool),
        Option("slow_disarm_bonus", 2, "added to the 2d6 of a slow disarm", check_int(0, 12)),
        Option("variable_disarm_fixed", True, "an n+ disarm number is n + 1d6 rolled at the "
               "first attempt and kept for the game (false: rolled at every attempt)",
               check_bool),
        Option("blind_disarm", False, "any seat may try to disarm an exposed trap it has not "
               "read (default: only a seat that read the dial where it is now, or anyone once "
               "triggered; a blind try's refusal could tell an X)", check_bool),
        Option("reveal_exposed_x", False, "an exposed X shows as clear on every screen at once "
               "(default: a private reading like any other, public when triggered)", check_bool),
        Option("diagonal_trigger_max", 3, "a diagonal move past a trap triggers it on a d6 at "
               "or below this (Nimble: no roll)", check_int(0, 6)),
        Option("shockwave_defence", 12, "defence value of a trap against a Shockwave attack",
               check_int(0, 40)),
        Option("squares_per_trap", 50, "dungeon squares per trap each player may put in the "
               "trap pool (checked when dungeon is given)", check_int(1, 100_000)),
        Option("trap_spacing", 5, "traps are at least this many squares apart (checked when "
               "dungeon is given)", check_int(0, 1000)),
        Option("dead_end_distance", 5, "traps are at least this many squares from the entrance "
               "of a dead-end hallway, never in one (checked when dungeon is given)",
               check_int(0, 1000)),
        Option("dungeon", None, "the dungeon grid {\"map\": rows of '.' and '#', \"traps\": "
               "{square: [row, column]}} for the placement checks; null: not checked",
               check_dungeon),
    )
    EVENTS: ClassVar[dict[str, dict[str, Field]]] = {
        # Clicks and dice are range-checked by the handlers, so a refusal names the rule.
        "expose": {"seat": Field(int), "square": Field(str),
                   "clicks": Field(int, required=False)},
        "trigger": {"seat": Field(int), "square": Field(str),
                    "clicks": Field(int, required=False)},
        "disarm": {"seat": Field(int), "square": Field(str),
                   "mode": Field(str, choices=("quick", "slow")),
                   "dice": Field(list, required=False, items=int),
                   "variable_die": Field(int, required=False)},
        # A counterattack on a triggered Jaws of Doom (docs/table-log.md). Either the players say
        # whether it dealt damage, or they give attack, 2d6 and damage for us to resolve.
        "counterattack": {"seat": Field(int), "square": Field(str),
                          "damaged": Field(bool, required=False),
                          "attack": Field(int, required=False, minimum=0, maximum=100),
                          "dice": Field(list, required=False, items=int),
                          "damage": Field(int, required=False, minimum=0, maximum=100)},
    }

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
        refusals = {
            HIDDEN: ("disarm-unexposed", _("{square} has not been exposed: expose it first")),
            DISARMED: ("disarm-disarmed", _("{square} is disarmed already")),
            CLEAR: ("disarm-clear", _("{square} is clear terrain: there is no trap to disarm")),
        }
        status = self.squares[square]["status"]
        if status not in refusals:
            return None
        rule, message = refusals[status]
        return RuleViolation(rule, message.format(square=square))

    def refuse_early(self, partial: Mapping[str, Any]) -> RuleViolation | None:
        # Only the square's public status: the dial's reading must not decide it early.
        square = partial.get("square")
        if partial.get("type") != "disarm" or square not in self.squares:
            return None
        return self._disarm_status_refusal(square)

    def _roll(self, what: str) -> int:
        return self.rng("roll", self.step, what).randint(1, 6)

    def _square(self, event: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        square = event["square"]
        if square not in self.squares:
            raise RuleViolation("unknown-square", _("there is no trap square {square!r} "
                                                  "(squares: {squares})")
                                                  .format(square=square,
                                                          squares=", ".join(self.squares)))
        return square, self.squares[square]

    def _reading(self, square: str) -> str | dict[str, Any]:
        return reading_at(self.dials[square], self.squares[square]["position"])

    def _trap(self, reading: dict[str, Any]) -> dict[str, Any]:
        return self.options["catalog"]["traps"][reading["trap"]]

    def _clicks(self, event: dict[str, Any], action: str) -> int:
        if "clicks" in event:
            if event["clicks"] < 1:
                raise RuleViolation(f"{action}-clicks", _("the dial turns at least 1 click "
                                                        "counter-clockwise, got {clicks}")
                                                        .format(clicks=event['clicks']))
            return event["clicks"]
        if self.options["companion_rolls"]:
            return self._roll("clicks")
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

    def _who(self, seat: int) -> str:
        return self.seats[seat]

    def _describe(self, reading: str | dict[str, Any], fixed: int | None = None
                  ) -> dict[str, Any]:
        """A reading as a screen shows it."""
        if reading == "x":
            return {"trap": None, "name": "X", "effect": _("No trap: clear terrain for the game")}
        trap = self._trap(reading)
        base, variable = parse_disarm(reading["disarm"])
        return {"trap": reading["trap"], "name": translated(trap["name"]),
                "effect": translated(trap["effect"]),
                "damage": trap["damage"], "disarm": reading["disarm"],
                "disarm_now": fixed if variable else base, "xp": reading["xp"]}

    def _reading_text(self, square: str, reading: str | dict[str, Any]) -> str:
        if reading == "x":
            return _("{square} reads X: no trap").format(square=square)
        shown = self._describe(reading)
        return _("{square} reads {trap}: disarm {disarm}, {xp} XP").format(
            square=square, trap=shown["name"], disarm=shown["disarm"], xp=shown["xp"])

    # --- events ----------------------------------------------------------------------

    def on_expose(self, event: dict[str, Any]) -> None:
        self.step += 1
        square, state = self._square(event)
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
        reading = self._reading(square)
        shown_clear = reading == "x" and self.options["reveal_exposed_x"]
        state["status"] = CLEAR if shown_clear else EXPOSED
        self.last = (_("{player} exposed {square}: X, clear terrain") if shown_clear
                     else _("{player} exposed {square}")).format(player=self._who(seat),
                                                                 square=square)
        self.note = {"seat": seat, "text": self._reading_text(square, reading)}

    def on_trigger(self, event: dict[str, Any]) -> None:
        self.step += 1
        square, state = self._square(event)
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
        reading = self._reading(square)
        if reading == "x":
            state["status"] = CLEAR
            self.last = _("{player} triggered {square}: X, clear").format(
                player=self._who(seat), square=square)
            self.note = {"seat": None, "text": ""}
            return
        trap = self._trap(reading)
        if state["status"] == TRIGGERED and trap["triggers_once"]:
            raise RuleViolation("trigger-once", _("the {trap} on {square} triggers "
                                                "only once and already has")
                                                .format(trap=translated(trap["name"]),
                                                        square=square))
        self._spring(square, seat, _("{player} triggered {square}: {trap}"))

    def _spring(self, square: str, seat: int, how: str) -> None:
        """The trap goes off on ``seat``: public on every screen from now on."""
        state = self.squares[square]
        trap = self._trap(self._reading(square))
        damage = trap["damage"]
        if damage == "1d6" and self.options["companion_rolls"]:
            damage = self._roll("damage")
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
        self.last = how.format(player=self._who(seat), square=square, trap=name)
        self.note = {"seat": None, "text": ""}
        self.sprung = {"square": square, "seat": seat, "name": name, "hurt": hurt,
                       "effect": translated(trap["effect"])}

    def _disarm_number(self, square: str, event: dict[str, Any]) -> int:
        state = self.squares[square]
        reading = self._reading(square)
        trap = self._trap(reading)
        given = "variable_die" in event
        if state["status"] == TRIGGERED and trap["triggered_disarm"] is not None:
            if given:
                raise RuleViolation("variable-die", _("the triggered {trap} has a fixed "
                                                    "disarm number: leave out variable_die")
                                                    .format(trap=trap['name']))
            return trap["triggered_disarm"]
        base, variable = parse_disarm(reading["disarm"])
        if not variable:
            if given:
                raise RuleViolation("variable-die", _("{square}'s disarm number is not variable: "
                                                    "leave out variable_die").format(square=square))
            return base
        key = str(state["position"])
        keep = self.options["variable_disarm_fixed"]
        if keep and key in state["fixed_disarm"]:
            if given:
                raise RuleViolation("variable-die", _("{square}'s variable disarm number was "
                                                    "fixed at the first attempt: leave out "
                                                    "variable_die").format(square=square))
            return state["fixed_disarm"][key]
        if given:
            die = check_dice([event["variable_die"]], 1, "variable-die", "variable_die")[0]
        elif self.options["companion_rolls"]:
            die = self._roll("variable")
        else:
            raise RuleViolation("variable-die", _("{square} has a variable disarm number: the "
                                                "first attempt needs variable_die (1d6)")
                                                .format(square=square))
        if keep:
            state["fixed_disarm"][key] = base + die
        return base + die

    def on_disarm(self, event: dict[str, Any]) -> None:
        self.step += 1
        square, state = self._square(event)
        seat, mode = event["seat"], event["mode"]
        refusal = self._disarm_status_refusal(square)
        if refusal is not None:
            raise refusal
        if (state["status"] == EXPOSED and not self.options["blind_disarm"]
                and state["read_by"].get(str(seat)) != state["position"]):
            # Decided on public facts only (who turned the dial how far): any answer that
            # looked at the reading would tell this seat, and the table, what it hides.
            raise RuleViolation("disarm-unread", _("{player} has not read {square} "
                                                 "where its dial is now: expose it first")
                                                 .format(player=self._who(seat), square=square))
        reading = self._reading(square)
        if reading == "x":
            raise RuleViolation("disarm-no-trap", _("there is no trap on {square} to disarm")
                                                    .format(square=square))
        trap = self._trap(reading)
        if state["status"] == TRIGGERED and not trap["disarm_after_trigger"]:
            raise RuleViolation("trap-spent", _("the {trap} on {square} has gone off "
                                              "for good: there is nothing left to disarm")
                                              .format(trap=translated(trap["name"]), square=square))
        if "dice" in event:
            dice = check_dice(event["dice"], 2, "disarm-dice", "a disarm")
        elif self.options["companion_rolls"]:
            dice = [self._roll("die-1"), self._roll("die-2")]
        else:
            raise RuleViolation("disarm-dice", _("a disarm needs dice: the two six-sided dice "
                                               "rolled (or turn on companion_rolls)"))
        number = self._disarm_number(square, event)
        total = sum(dice) + (self.options["slow_disarm_bonus"] if mode == "slow" else 0)
        who = self._who(seat)
        gained = reading["xp"] if total >= number else 0
        self.attempts = (*self.attempts, Attempt(seat, square, gained))
        if total >= number:
            self.xp[seat] += reading["xp"]
            state["status"] = DISARMED
            state["disarmed_by"] = seat
            state["released"], state["prisoner"] = state["prisoner"], None
            freed = (_("; {player} is free").format(player=self._who(state["released"]))
                     if state["released"] is not None else "")
            self.last = _("{player} disarmed {square}: +{xp} XP").format(
                player=who, square=square, xp=reading["xp"]) + freed
            self.note = {"seat": None, "text": ""}
        elif state["status"] == TRIGGERED and trap["triggers_once"]:
            self.last = _("{player} failed to disarm {square}: {total} < {number}").format(
                player=who, square=square, total=total, number=number)
            self.note = {"seat": None, "text": ""}
        else:
            self._spring(square, seat, _("{player} failed to disarm {square}: {trap}"))

    def on_counterattack(self, event: dict[str, Any]) -> None:
        """A counterattack on a triggered Jaws of Doom: damage disarms it without XP; a miss
        takes the figure off the board and the trap stays armed (rules: Jaws of Doom)."""
        self.step += 1
        square, state = self._square(event)
        reading = self._reading(square) if state["status"] == TRIGGERED else None
        if not isinstance(reading, Mapping) or reading["trap"] != "jaws-of-doom":
            raise RuleViolation("counterattack-jaws", _("only a triggered Jaws of Doom can be "
                                                      "counterattacked, not {square}")
                                                      .format(square=square))
        if state["figure_gone"]:
            raise RuleViolation("counterattack-jaws", _("the Jaws of Doom figure on {square} "
                                                      "left the board after a missed "
                                                      "counterattack: it attacks again only "
                                                      "when set off again").format(square=square))
        rolled = [key for key in ("attack", "dice", "damage") if key in event]
        if "damaged" in event:
            if rolled:
                raise RuleViolation("counterattack-fields", _("give either damaged or "
                                                            "{rolled}, not both")
                                                            .format(rolled=', '.join(rolled)))
            damaged = event["damaged"]
        elif len(rolled) == 3:
            damaged = self.jaws_counterattack(
                event["attack"], event["dice"], event["damage"])["outcome"] == "damaged"
        else:
            raise RuleViolation("counterattack-fields", _("a counterattack needs damaged (true or "
                                                        "false) or attack, dice and damage"))
        who = self._who(event["seat"])
        if damaged:
            state["status"] = DISARMED
            state["disarmed_by"] = None
            state["released"], state["prisoner"] = state["prisoner"], None
            self.last = _("{player} damaged the Jaws on {square}: disarmed, no XP").format(
                player=who, square=square)
        else:
            state["figure_gone"] = True
            self.last = _("{player} missed the Jaws on {square}: still armed").format(
                player=who, square=square)
        self.note = {"seat": None, "text": ""}

    # --- what the screens and the referee see ----------------------------------------

    def _public_square(self, square: str) -> dict[str, Any]:
        state = self.squares[square]
        shown: dict[str, Any] = {"status": state["status"],
                                 "exposed_by": sorted(state["exposed_by"])}
        if state["status"] == CLEAR:
            shown["reading"] = "x"
        if state["triggers"]:
            reading = self._reading(square)
            trap = self._trap(reading)
            shown.update(self._describe(reading, state["fixed_disarm"].get(
                str(state["position"]))))
            if trap["triggered_disarm"] is not None:
                shown["disarm_now"] = trap["triggered_disarm"]
            shown["armed"] = state["status"] == TRIGGERED and not trap["triggers_once"]
            shown["disarmable"] = state["status"] == TRIGGERED and trap["disarm_after_trigger"]
            shown["triggered_by"] = [dict(hit) for hit in state["triggers"]]
            shown["prisoner"] = state["prisoner"]
            if trap["attack"] is not None:
                shown["attack"] = dict(trap["attack"])
        if state["status"] == DISARMED:
            shown["disarmed_by"] = state["disarmed_by"]
            by_counterattack = state["disarmed_by"] is None
            shown["xp_gained"] = 0 if by_counterattack else reading_at(
                self.dials[square], state["position"])["xp"]
            shown["released"] = state["released"]
        return shown

    def view(self, seat: int | None) -> dict[str, Any]:
        squares = {square: self._public_square(square) for square in self.squares}
        shown: dict[str, Any] = {"game": self.name, "seat": seat, "squares": squares,
                                 "xp": list(self.xp), "finished": self.finished,
                                 "last": self.last, "sprung": copy.deepcopy(self.sprung)}
        if seat is None:
            return shown
        for square, state in self.squares.items():
            position = state["read_by"].get(str(seat))
            if position is None:
                continue
            reading = reading_at(self.dials[square], position)
            squares[square]["reading_seen"] = {
                **self._describe(reading, state["fixed_disarm"].get(str(position))),
                "current": position == state["position"] and state["status"] != DISARMED,
            }
        shown["your_xp"] = self.xp[seat]
        shown["note"] = self.note["text"] if self.note["seat"] == seat else ""
        return shown

    def referee_view(self) -> dict[str, Any]:
        squares = {}
        for square, state in self.squares.items():
            squares[square] = {
                **self._public_square(square),
                "position": state["position"],
                "reading_now": self._describe(self._reading(square), state["fixed_disarm"].get(
                    str(state["position"]))),
                "read_by": dict(state["read_by"]),
                "fixed_disarm": dict(state["fixed_disarm"]),
                "dial": [dict(p) if isinstance(p, Mapping) else p for p in self.dials[square]],
            }
        return {"game": self.name, "seat": None, "squares": squares, "xp": list(self.xp),
                "finished": self.finished, "last": self.last, "note": dict(self.note)}

    def settled(self, square: str) -> bool:
        """Nothing more can change ``square`` for good: disarmed, clear, or past disarming."""
        status = self.squares[square]["status"]
        if status == TRIGGERED:
            return not self._trap(self._reading(square))["disarm_after_trigger"]
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
        kinds = ", ".join(f"{kind} {xp}" for kind, xp in sorted(mine["xp_by_trap"].items()))
        made = f"{mine['disarms_made']} / {mine['disarms_tried']}"
        return made + (f"; {kinds}" if kinds else "")

    def figures(self) -> dict[str, list[Any]]:
        """Per seat: disarms tried and made, and XP per trap kind. A kind is named only once
        the trap went off on somebody (then every screen showed it); a trap disarmed unseen
        by the others counts as "unrevealed", as its dial reading stays a secret."""
        tried, made = [0] * len(self.seats), [0] * len(self.seats)
        by_kind: list[dict[str, int]] = [{} for _ in self.seats]
        for attempt in self.attempts:
            seat = attempt.seat
            tried[seat] += 1
            if attempt.xp:
                made[seat] += 1
                kind = self._public_square(attempt.square).get("trap") or "unrevealed"
                by_kind[seat][kind] = by_kind[seat].get(kind, 0) + attempt.xp
        return {"disarms_tried": tried, "disarms_made": made, "xp_by_trap": by_kind}

    def score_track(self) -> list[list[int]]:
        """XP after each disarm that earned some (traps has no rounds)."""
        running, track = [0] * len(self.seats), []
        for attempt in self.attempts:
            if attempt.xp:
                running = list(running)
                running[attempt.seat] += attempt.xp
                track.append(running)
        return track

    def state_in_words(self, state: dict[str, Any]) -> list[str]:
        names = self.seats
        lines = ["XP: " + ", ".join(f"{name} {xp}"
                                    for name, xp in zip(names, state["xp"], strict=True))]
        for square, shown in state["squares"].items():
            words = f"{square}: {shown['status']}"
            if shown.get("name"):
                words += f", {shown['name']}"
            if shown.get("exposed_by"):
                words += ", exposed by " + ", ".join(names[s] for s in shown["exposed_by"])
            if shown.get("disarmed_by") is not None:
                words += f", disarmed by {names[shown['disarmed_by']]} (+{shown['xp_gained']} XP)"
            lines.append(words)
        if state.get("last"):
            lines.append(f"last: {state['last']}")
        return lines

    # --- questions the daemon asks before it logs a trigger --------------------------

    def armed_in_public(self, square: str) -> bool:
        """Whether a figure moving onto ``square`` may set it off, from what all may know."""
        status = self.squares[square]["status"]
        if status == TRIGGERED:
            return not self._trap(self._reading(square))["triggers_once"]
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
