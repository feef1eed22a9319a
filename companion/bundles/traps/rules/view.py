"""What the traps screens and the referee see, and the figures after a game.

Every key is documented in the game's README.md. A seat sees the readings it took itself
(``reading_seen``); the public view shows a reading only once the trap went off, or a clear X
when the rules make it public. The referee view holds every dial.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from companion.bundles.traps.rules.dials import parse_disarm, reading_at
from companion.bundles.traps.rules.options import CLEAR, DISARMED, TRIGGERED
from companion.bundles.traps.rules.state import TrapsState
from companion.games.base import per_seat
from companion.i18n import NP_, _, pgettext, translated, translated_in


def describe(game: TrapsState, reading: str | dict[str, Any], fixed: int | None = None
              ) -> dict[str, Any]:
    """A reading as a screen shows it."""
    if reading == "x":
        return {"trap": None, "name": "X", "effect": _("No trap: clear terrain for the game")}
    trap = game.trap_of(reading)
    base, variable = parse_disarm(reading["disarm"])
    return {"trap": reading["trap"], "name": translated(trap["name"]),
            "effect": translated(trap["effect"]),
            "damage": trap["damage"], "disarm": reading["disarm"],
            "disarm_now": fixed if variable else base, "xp": reading["xp"]}


def public_square(game: TrapsState, square: str) -> dict[str, Any]:
    state = game.squares[square]
    square_view: dict[str, Any] = {"status": state["status"],
                             "exposed_by": sorted(state["exposed_by"])}
    if state["status"] == CLEAR:
        square_view["reading"] = "x"
    if state["triggers"]:
        reading = game.reading_of(square)
        trap = game.trap_of(reading)
        square_view.update(describe(game, reading, state["fixed_disarm"].get(
            str(state["position"]))))
        if trap["triggered_disarm"] is not None:
            square_view["disarm_now"] = trap["triggered_disarm"]
        square_view["armed"] = state["status"] == TRIGGERED and not trap["triggers_once"]
        square_view["disarmable"] = state["status"] == TRIGGERED and trap["disarm_after_trigger"]
        square_view["triggered_by"] = [dict(hit) for hit in state["triggers"]]
        square_view["prisoner"] = state["prisoner"]
        if trap["attack"] is not None:
            square_view["attack"] = dict(trap["attack"])
    if state["status"] == DISARMED:
        square_view["disarmed_by"] = state["disarmed_by"]
        by_counterattack = state["disarmed_by"] is None
        square_view["xp_gained"] = 0 if by_counterattack else reading_at(
            game.dials[square], state["position"])["xp"]
        square_view["released"] = state["released"]
    return square_view


def view(game: TrapsState, seat: int | None) -> dict[str, Any]:
    squares = {square: public_square(game, square) for square in game.squares}
    result: dict[str, Any] = {"game": game.name, "seat": seat, "squares": squares,
                             "xp": list(game.xp), "finished": game.finished,
                             "last": game.last, "sprung": copy.deepcopy(game.sprung)}
    if seat is None:
        return result
    for square, state in game.squares.items():
        position = state["read_by"].get(str(seat))
        if position is None:
            continue
        reading = reading_at(game.dials[square], position)
        squares[square]["reading_seen"] = {
            **describe(game, reading, state["fixed_disarm"].get(str(position))),
            "current": position == state["position"] and state["status"] != DISARMED,
        }
    result["your_xp"] = game.xp[seat]
    result["note"] = game.note["text"] if game.note["seat"] == seat else ""
    return result

def referee_view(game: TrapsState) -> dict[str, Any]:
    squares = {}
    for square, state in game.squares.items():
        squares[square] = {
            **public_square(game, square),
            "position": state["position"],
            "reading_now": describe(game, game.reading_of(square), state["fixed_disarm"].get(
                str(state["position"]))),
            "read_by": dict(state["read_by"]),
            "fixed_disarm": dict(state["fixed_disarm"]),
            "dial": [dict(p) if isinstance(p, Mapping) else p for p in game.dials[square]],
        }
    return {"game": game.name, "seat": None, "squares": squares, "xp": list(game.xp),
            "finished": game.finished, "last": game.last, "note": dict(game.note)}


def figures(game: TrapsState) -> dict[str, list[Any]]:
    """Per seat: disarms tried and made, and XP per trap kind. A kind is named only once
    the trap went off on somebody (then every screen showed it); a trap disarmed unseen
    by the others counts as "unrevealed", as its dial reading stays a secret."""
    seats, made = len(game.seats), [attempt for attempt in game.attempts if attempt.xp]
    by_kind: list[dict[str, int]] = [{} for _ in game.seats]
    for attempt in made:
        kind = public_square(game, attempt.square).get("trap") or "unrevealed"
        by_kind[attempt.seat][kind] = by_kind[attempt.seat].get(kind, 0) + attempt.xp
    return {"disarms_tried": per_seat(seats, (attempt.seat for attempt in game.attempts)),
            "disarms_made": per_seat(seats, (attempt.seat for attempt in made)),
            "xp_by_trap": by_kind}

def score_track(game: TrapsState) -> list[list[int]]:
    """XP after each disarm that earned some (traps has no rounds)."""
    running, track = [0] * len(game.seats), []
    for attempt in game.attempts:
        if attempt.xp:
            running = list(running)
            running[attempt.seat] += attempt.xp
            track.append(running)
    return track

#: The squares' states as the pages' state lines name them (``pgettext("web", status)``).
STATUSES = (NP_("web", "hidden"), NP_("web", "exposed"), NP_("web", "triggered"),
            NP_("web", "disarmed"), NP_("web", "clear"))


def state_in_words(game: TrapsState, state: dict[str, Any]) -> list[str]:
    """The public view as lines a person reads, in the language drawn (the web pages)."""
    names = game.seats
    lines = [pgettext("web", "XP: {scores}").format(scores=", ".join(
        f"{name} {xp}" for name, xp in zip(names, state["xp"], strict=True)))]
    for square, square_view in state["squares"].items():
        words = [f"{square}: {translated_in('web', square_view['status'])}"]
        if square_view.get("name"):
            words.append(square_view["name"])
        if square_view.get("exposed_by"):
            words.append(pgettext("web", "exposed by {players}").format(
                players=", ".join(names[s] for s in square_view["exposed_by"])))
        if square_view.get("disarmed_by") is not None:
            words.append(pgettext("web", "disarmed by {player} (+{xp} XP)").format(
                player=names[square_view["disarmed_by"]], xp=square_view["xp_gained"]))
        lines.append(", ".join(words))
    if state.get("last"):
        lines.append(pgettext("web", "last: {event}").format(event=state["last"]))
    return lines

# --- questions the daemon asks before it logs a trigger --------------------------
