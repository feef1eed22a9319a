"""Disarming a Mage Knight 3D Dungeons trap: a disarm with two dice, its disarm number, and
a counterattack on the Jaws of Doom.

Split from ``engine.py`` (``Traps.on_disarm``, ``Traps.on_counterattack`` and
``Traps.refuse_early`` call these); they change the state of the ``Traps`` given, which is a
fresh copy (``Game.after``). Rules: the game's README.md, rulings: docs/rulings.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.bundles.traps.rules.dials import parse_disarm
from companion.bundles.traps.rules.moves import check_dice
from companion.bundles.traps.rules.options import (
    CLEAR,
    DISARMED,
    EXPOSED,
    HIDDEN,
    TRIGGERED,
    Attempt,
)
from companion.bundles.traps.rules.state import TrapsState
from companion.errors import RuleViolation
from companion.i18n import _, translated


def status_refusal(game: TrapsState, square: str) -> RuleViolation | None:
    """A disarm the square's public status already rules out (hidden, disarmed, clear)."""
    refusals = {
        HIDDEN: ("disarm-unexposed", _("{square} has not been exposed: expose it first")),
        DISARMED: ("disarm-disarmed", _("{square} is disarmed already")),
        CLEAR: ("disarm-clear", _("{square} is clear terrain: there is no trap to disarm")),
    }
    status = game.squares[square]["status"]
    if status not in refusals:
        return None
    rule, message = refusals[status]
    return RuleViolation(rule, message.format(square=square))


def disarm_number(game: TrapsState, square: str, event: dict[str, Any]) -> int:
    state = game.squares[square]
    reading = game.reading_of(square)
    trap = game.trap_of(reading)
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
    keep = game.options["variable_disarm_fixed"]
    if keep and key in state["fixed_disarm"]:
        if given:
            raise RuleViolation("variable-die", _("{square}'s variable disarm number was "
                                                "fixed at the first attempt: leave out "
                                                "variable_die").format(square=square))
        return state["fixed_disarm"][key]
    if given:
        die = check_dice([event["variable_die"]], 1, "variable-die", "variable_die")[0]
    elif game.options["companion_rolls"]:
        die = game.roll_die("variable")
    else:
        raise RuleViolation("variable-die", _("{square} has a variable disarm number: the "
                                            "first attempt needs variable_die (1d6)")
                                            .format(square=square))
    if keep:
        state["fixed_disarm"][key] = base + die
    return base + die


def disarm(game: TrapsState, event: dict[str, Any]) -> None:
    game.step += 1
    square, state = game.square_of(event)
    seat, mode = event["seat"], event["mode"]
    refusal = status_refusal(game, square)
    if refusal is not None:
        raise refusal
    if (state["status"] == EXPOSED and not game.options["blind_disarm"]
            and state["read_by"].get(str(seat)) != state["position"]):
        # Decided on public facts only (who turned the dial how far): any answer that
        # looked at the reading would tell this seat, and the table, what it hides.
        raise RuleViolation("disarm-unread", _("{player} has not read {square} "
                                             "where its dial is now: expose it first")
                                             .format(player=game.who(seat), square=square))
    reading = game.reading_of(square)
    if reading == "x":
        raise RuleViolation("disarm-no-trap", _("there is no trap on {square} to disarm")
                                                .format(square=square))
    trap = game.trap_of(reading)
    if state["status"] == TRIGGERED and not trap["disarm_after_trigger"]:
        raise RuleViolation("trap-spent", _("the {trap} on {square} has gone off "
                                          "for good: there is nothing left to disarm")
                                          .format(trap=translated(trap["name"]), square=square))
    if "dice" in event:
        dice = check_dice(event["dice"], 2, "disarm-dice", "a disarm")
    elif game.options["companion_rolls"]:
        dice = [game.roll_die("die-1"), game.roll_die("die-2")]
    else:
        raise RuleViolation("disarm-dice", _("a disarm needs dice: the two six-sided dice "
                                           "rolled (or turn on companion_rolls)"))
    number = disarm_number(game, square, event)
    total = sum(dice) + (game.options["slow_disarm_bonus"] if mode == "slow" else 0)
    who = game.who(seat)
    gained = reading["xp"] if total >= number else 0
    game.attempts = (*game.attempts, Attempt(seat, square, gained))
    if total >= number:
        game.xp[seat] += reading["xp"]
        state["status"] = DISARMED
        state["disarmed_by"] = seat
        state["released"], state["prisoner"] = state["prisoner"], None
        freed = (_("; {player} is free").format(player=game.who(state["released"]))
                 if state["released"] is not None else "")
        game.last = _("{player} disarmed {square}: +{xp} XP").format(
            player=who, square=square, xp=reading["xp"]) + freed
        game.note = {"seat": None, "text": ""}
    elif state["status"] == TRIGGERED and trap["triggers_once"]:
        game.last = _("{player} failed to disarm {square}: {total} < {number}").format(
            player=who, square=square, total=total, number=number)
        game.note = {"seat": None, "text": ""}
    else:
        game.spring(square, seat, _("{player} failed to disarm {square}: {trap}"))


def counterattack(game: TrapsState, event: dict[str, Any]) -> None:
    """A counterattack on a triggered Jaws of Doom: damage disarms it without XP; a miss
    takes the figure off the board and the trap stays armed (rules: Jaws of Doom)."""
    game.step += 1
    square, state = game.square_of(event)
    reading = game.reading_of(square) if state["status"] == TRIGGERED else None
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
        damaged = game.jaws_counterattack(
            event["attack"], event["dice"], event["damage"])["outcome"] == "damaged"
    else:
        raise RuleViolation("counterattack-fields", _("a counterattack needs damaged (true or "
                                                    "false) or attack, dice and damage"))
    who = game.who(event["seat"])
    if damaged:
        state["status"] = DISARMED
        state["disarmed_by"] = None
        state["released"], state["prisoner"] = state["prisoner"], None
        game.last = _("{player} damaged the Jaws on {square}: disarmed, no XP").format(
            player=who, square=square)
    else:
        state["figure_gone"] = True
        game.last = _("{player} missed the Jaws on {square}: still armed").format(
            player=who, square=square)
    game.note = {"seat": None, "text": ""}
