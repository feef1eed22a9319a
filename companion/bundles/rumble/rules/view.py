"""What the rumble screens and the referee see, and the figures after a game.

Every key is documented in the game's README.md. A seat's secret characters are on its own view
only (``secrets``) until the adventure is scored; the referee view holds them all and the
deal still pending.
"""

from __future__ import annotations

from typing import Any

from companion.bundles.rumble.rules.options import OVER, PLAY, REVEAL, character_word
from companion.bundles.rumble.rules.state import RumbleState
from companion.games.base import per_seat, seat_view
from companion.i18n import NP_, pgettext, translated_in


def public_view(game: RumbleState) -> dict[str, Any]:
    scored = len(game.scores)
    given = [seat for seat, pair in enumerate(game.secrets[game.adventure]) if pair]
    return {
        "adventure": game.adventure + 1,
        "adventures": game.options["adventures"],
        "phase": game.phase,
        "turn": game.turn,
        "starters": list(game.starters),
        "positions": dict(game.positions),
        "chest": game.chest,
        "entry": game.options["map"]["entry"],
        "treasure": game.options["map"]["treasure"],
        "exits": [list(exits) for exits in game.exits],
        "escaped": list(game.escaped),
        "secrets_from": game.source[game.adventure],
        "secrets_given": given if game.phase != OVER else [],
        "waiting_for": game.waiting_for(),
        "last": dict(game.last) if game.last else None,
        "rankings": [list(ranking) for ranking in game.rankings],
        "revealed": [[list(pair or ()) for pair in game.secrets[a]] for a in range(scored)],
        "scores": [list(scores) for scores in game.scores],
        "totals": game.totals(),
    }


def own_secrets(game: RumbleState, seat: int) -> list[str] | None:
    """``seat``'s secret characters in the adventure in play, dealt or given, if known."""
    if game.phase == OVER:
        return None
    pair = game.secrets[game.adventure][seat]
    if pair is None and game.actions == 0 and game.source[game.adventure] is None \
            and game.options["deal_secrets"]:
        # The seeded deal is on the private screen from the adventure's start: the first
        # player needs it to choose; it binds at the first action unless tokens are given.
        pair = game.deal(game.adventure)[seat]
    return list(pair) if pair else None


def prompt(game: RumbleState, seat: int) -> str:
    if game.phase == OVER:
        return pgettext("text", "Game over")
    if seat in game.waiting_for():
        return pgettext("text", "Reveal your 2 secret characters") if game.phase == REVEAL \
            else pgettext("text", "Give your 2 secret characters")
    if game.phase == REVEAL:
        return pgettext("text", "Waiting for the others' secret characters")
    if seat == game.turn:
        return pgettext("text", "Your turn: move, fight or escape")
    assert game.turn is not None
    return pgettext("text", "{player}'s turn").format(player=game.seats[game.turn])


def view(game: RumbleState, seat: int | None) -> dict[str, Any]:
    return seat_view(public_view(game), seat, lambda seat: {
        "your_turn": game.phase == PLAY and seat == game.turn,
        "secrets": game.own_secrets(seat),
        "prompt": prompt(game, seat),
        "actions": game.legal_actions(seat),
        "refused": game.refused_actions(seat),
    })


def referee_view(game: RumbleState) -> dict[str, Any]:
    state = public_view(game)
    state["secrets"] = [[list(pair) if pair else None for pair in pairs]
                        for pairs in game.secrets]
    state["secrets_sources"] = list(game.source)
    pending = game.phase == PLAY and game.actions == 0 and game.source[game.adventure] is None
    state["pending_deal"] = game.deal(game.adventure) \
        if pending and game.options["deal_secrets"] else None
    return state


def figures(game: RumbleState) -> dict[str, list[Any]]:
    """Per seat: scored adventures its own secret character escaped in (revealed at
    scoring), and escapes it made itself, carrying the chest out whoever's it was."""
    scored = range(len(game.scores))
    own = (seat for adventure in scored for seat, pair in enumerate(game.secrets[adventure])
           if pair and game.escaped[adventure] in pair)
    carried = (game.carried[adventure] for adventure in scored
               if game.carried[adventure] is not None)
    return {"escapes": per_seat(len(game.seats), own),
            "chests": per_seat(len(game.seats), carried)}


#: The phases as the pages' state lines name them (``pgettext("web", phase)``).
PHASES = (NP_("web", "play"), NP_("web", "reveal"), NP_("web", "over"))


def state_in_words(game: RumbleState, state: dict[str, Any]) -> list[str]:
    """The public view as lines a person reads, in the language drawn (the web pages)."""
    names = game.seats
    lines = [pgettext("web", "adventure {n} of {total}, {phase}").format(
        n=state["adventure"], total=state["adventures"],
        phase=translated_in("web", state["phase"]))]
    if state["turn"] is not None:
        lines.append(pgettext("web", "{player} to act").format(player=names[state["turn"]]))
    if state["positions"]:
        rooms: dict[str, list[str]] = {}
        for character, room in state["positions"].items():
            rooms.setdefault(room, []).append(character_word(character))
        lines.append(pgettext("web", "in the dungeon: {rooms}").format(rooms="; ".join(
            f"{room} {', '.join(who)}" for room, who in sorted(rooms.items()))))
    lines.append(pgettext("web", "chest: {room}").format(room=state["chest"]) if state["chest"]
                 else pgettext("web", "chest: gone"))
    for number, ranking in enumerate(state["rankings"], start=1):
        escaped = state["escaped"][number - 1]
        ranks = ", ".join(character_word(c) for c in ranking)
        lines.append((pgettext("web", "adventure {n}: {character} escaped with the chest; "
                               "ranks {ranks}") if escaped else
                      pgettext("web", "adventure {n}: nobody escaped; ranks {ranks}")).format(
            n=number, character=character_word(escaped) if escaped else "", ranks=ranks))
        pairs = state["revealed"][number - 1]
        lines.append("  " + pgettext("web", "secret characters: {pairs}").format(
            pairs="; ".join(f"{name} {' + '.join(map(character_word, pair))}"
                            for name, pair in zip(names, pairs, strict=True))))
    return lines
