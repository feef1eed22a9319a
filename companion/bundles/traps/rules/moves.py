"""Whether a move or an attack sets a trap off, and how a counterattack on the Jaws ends.

These rules decide *whether* a ``trigger`` event happens; the companion asks them before it
logs one (the table log only records what did happen). All are pure functions of the dice.

>>> passage_triggers("diagonal", roll=2)
True
>>> passage_triggers("diagonal", nimble=True)
False
>>> passage_triggers("through", flying=True), passage_triggers("end", flying=True)
(False, True)
>>> shockwave_triggers(8, [2, 3])
True
"""

from __future__ import annotations

from typing import Any

from companion.errors import RuleViolation
from companion.i18n import _

#: How a hero meets a trap square: moving into or through it, ending its move on it, or
#: stepping diagonally between two squares that are both next to it.
MOVES = ("through", "end", "diagonal")


def check_dice(dice: Any, count: int, rule: str, what: str) -> list[int]:
    """``count`` six-sided dice, each 1 to 6, or a RuleViolation naming ``rule``."""
    if not isinstance(dice, list) or len(dice) != count:
        raise RuleViolation(rule, _("{what} rolls {count} six-sided dice: give exactly {count}, "
                                  "got {dice!r}").format(what=what, count=count, dice=dice))
    for die in dice:
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
            raise RuleViolation(rule, _("{what}: a six-sided die shows 1 to 6, got {die!r}")
                                        .format(what=what, die=die))
    return dice


def passage_triggers(how: str, *, roll: int | None = None, nimble: bool = False,
                     flying: bool = False, trigger_max: int = 3) -> bool:
    """Whether a hero's move sets off an armed trap square.

    Flight and Magic Levitation pass over trap squares but trigger them when the move
    ends there; a diagonal step past a trap triggers it on a d6 of ``trigger_max`` or less,
    and a Nimble (or flying) hero does not roll.
    """
    if how not in MOVES:
        raise RuleViolation("move", _("a move past a trap is {moves}; got {how!r}")
                                      .format(moves=', '.join(MOVES), how=how))
    if how == "end":
        return True
    if how == "through":
        return not flying
    if nimble or flying:
        return False
    if roll is None:
        raise RuleViolation("diagonal-roll", _("a diagonal move past a trap needs a d6: "
                                             "1 to {trigger_max} triggers it")
                                             .format(trigger_max=trigger_max))
    check_dice([roll], 1, "diagonal-roll", "a diagonal move past a trap")
    return roll <= trigger_max


def shockwave_triggers(attack: int, dice: list[int], defence: int = 12) -> bool:
    """Whether a Shockwave attack (attack value + 2d6) against a trap succeeds and sets it off."""
    return attack + sum(check_dice(dice, 2, "shockwave-dice", "a Shockwave attack")) >= defence


def jaws_counterattack(jaws: dict[str, Any], attack: int, dice: list[int],
                       damage: int) -> dict[str, Any]:
    """The outcome of a counterattack on the Jaws of Doom (attack value + 2d6 vs its defence).

    Damage that gets through (Toughness takes 1 off) disarms the trap with no XP; otherwise
    the trap figure leaves the board and the trap stays armed, to be disarmed as normal.
    """
    total = attack + sum(check_dice(dice, 2, "counterattack-dice", "a counterattack"))
    hit = total >= jaws["defence"]
    toughness = 1 if "Toughness" in jaws.get("abilities", []) else 0
    dealt = max(0, damage - toughness) if hit else 0
    if dealt:
        return {"hit": True, "damage": dealt, "outcome": "damaged",
                "text": "The Jaws of Doom is disarmed (no XP for a counterattack)"}
    return {"hit": hit, "damage": 0, "outcome": "removed",
            "text": "The Jaws figure leaves the board; the trap stays armed: disarm it as normal"}
