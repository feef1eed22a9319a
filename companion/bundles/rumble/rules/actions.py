"""What a Rumble seat may do now, and why not: every refusal, the actions the screens offer.

Split from ``engine.py``: one place decides, for events (``Rumble.on_*``) and for
the screens' action menus (``legal_actions``, ``refused_actions``). ``legal_actions`` is the
fast form of "the offered actions with no refusal" (``tests/rumble/test_rumble_properties.py``
checks that they agree), as the simulated players ask it before every action.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.bundles.rumble.rules.options import PLAY, REVEAL, SECRETS_PER_SEAT, character_word
from companion.bundles.rumble.rules.state import RumbleState
from companion.errors import RuleViolation
from companion.i18n import _


def over_refusal(game: RumbleState) -> RuleViolation | None:
    if game.finished:
        return RuleViolation("game-over", _("the game is over: all {count} "
                             "adventures are scored").format(count=len(game.scores)))
    return None


def secrets_refusal(game: RumbleState, seat: int, characters: list[str]) -> RuleViolation | None:
    number = game.adventure + 1
    if game.phase == PLAY and game.actions > 0:
        if game.options["deal_secrets"]:
            return RuleViolation("secrets-timing", _("the secret characters of adventure "
                                 "{number} were fixed at its first action; give them "
                                 "before an adventure's first action").format(number=number))
        return RuleViolation("secrets-timing", _("reveal secret characters when the adventure "
                             "ends (one character left), or give them before its first "
                             "action"))
    if game.secrets[game.adventure][seat] is not None:
        return RuleViolation("secrets-once", _("{player} has already given secret "
                             "characters for adventure {number}; undo to correct them")
                             .format(player=game.seats[seat], number=number))
    if len(characters) != SECRETS_PER_SEAT:
        return RuleViolation("secrets-count", _("each seat has exactly {n} "
                             "secret characters, got {count}")
                             .format(n=SECRETS_PER_SEAT, count=len(characters)))
    for character in characters:
        if character not in game.start_rooms:
            return _unknown(game, character)
    if characters[0] == characters[1]:
        return RuleViolation("secrets-count", _("the two secret characters must be different, "
                             "got {character} twice").format(
                                 character=character_word(characters[0])))
    if game.phase != REVEAL:
        # Told in private before play: naming a clash here would tell this seat another
        # seat's token. The clash holds up the first action instead, naming nothing.
        return None
    taken = {c for pair in game.secrets[game.adventure] if pair for c in pair}
    for character in characters:
        if character in taken:
            return RuleViolation("secrets-taken", _("{character} is already another "
                                 "seat's secret character in adventure {number}: each "
                                 "token is held by one seat")
                                 .format(character=character_word(character), number=number))
    return None


def _unknown(game: RumbleState, character: str) -> RuleViolation:
    return RuleViolation("unknown-character", _("there is no character '{character}' "
                         "(characters: {characters})")
                         .format(character=character, characters=', '.join(game.start_rooms)))


def _room_of(game: RumbleState, character: str) -> str | RuleViolation:
    if character not in game.start_rooms:
        return _unknown(game, character)
    if character not in game.positions:
        return RuleViolation("left", _("{character} has already left the dungeon "
                             "in adventure {adventure}")
                             .format(character=character_word(character),
                                     adventure=game.adventure + 1))
    return game.positions[character]


def refusal(game: RumbleState, event: dict[str, Any]) -> RuleViolation | None:
    """Why a well-formed move, fight or escape is not allowed now, or None if it is."""
    return turn_refusal(game, event["seat"]) or action_refusal(
        game, event, Counter(game.positions.values()))


def action_refusal(game: RumbleState, event: dict[str, Any], crowds: Counter[str]
                   ) -> RuleViolation | None:
    """The refusal of the action itself; ``crowds``: how many characters each room holds."""
    kind = event["type"]
    if kind == "move":
        return _move_refusal(game, event, crowds)
    if kind == "fight":
        return _fight_refusal(game, event, crowds)
    return _escape_refusal(game, event)


def turn_refusal(game: RumbleState, seat: int) -> RuleViolation | None:
    """Why ``seat`` may take no action now, whatever the action, or None."""
    if game.finished:
        return over_refusal(game)
    if game.phase == REVEAL:
        waiting = ", ".join(game.seats[s] for s in waiting_for(game))
        return RuleViolation("reveal", _("adventure {adventure} is over: waiting "
                             "for the secret characters of {waiting}")
                             .format(adventure=game.adventure + 1, waiting=waiting))
    if seat != game.turn:
        assert game.turn is not None
        return RuleViolation("turn", _("it is {player}'s turn, "
                             "not {player2}'s")
                             .format(player=game.seats[game.turn], player2=game.seats[seat]))
    missing = waiting_for(game)
    if missing:
        return RuleViolation("secrets-missing", _("{missing} "
                             "must give secret characters first (or undo the secrets "
                             "given, and the companion deals them all)")
                             .format(missing=', '.join(game.seats[s] for s in missing)))
    if game.actions == 0 and _tokens_clash(game):
        return RuleViolation("secrets-taken", _("two seats gave the same secret character "
                             "for adventure {adventure}: each seat checks its "
                             "tokens, then undo the wrong secrets and give them again")
                             .format(adventure=game.adventure + 1))
    return None


def _tokens_clash(game: RumbleState) -> bool:
    given = [c for pair in game.secrets[game.adventure] if pair for c in pair]
    return len(given) != len(set(given))


def _move_refusal(game: RumbleState, event: dict[str, Any], crowds: Counter[str]
                  ) -> RuleViolation | None:
    character, to = event["character"], event["to"]
    room = _room_of(game, character)
    if isinstance(room, RuleViolation):
        return room
    if to not in game.doors:
        return RuleViolation("unknown-room", _("there is no room '{to}' on the map "
                             "(rooms: {rooms})").format(to=to, rooms=', '.join(game.doors)))
    if to not in game.doors[room]:
        return RuleViolation("door", _("no door leads from {room} to {to}: doors from "
                             "{room} lead to {room2}")
                             .format(room=room, to=to, room2=', '.join(game.doors[room])))
    if event.get("chest", False):
        if game.chest is None:
            return RuleViolation("chest", _("the chest has already left the dungeon"))
        if game.chest != room:
            return RuleViolation("chest", _("the chest is in {chest}, not with "
                                 "{character} in {room}")
                                 .format(chest=game.chest, character=character_word(character),
                                         room=room))
    elif crowds[room] > 1:
        return RuleViolation("alone", _("{character} is not alone in {room}: only a "
                             "lone character moves, unless it takes the chest along")
                             .format(character=character_word(character), room=room))
    return None


def _fight_refusal(game: RumbleState, event: dict[str, Any], crowds: Counter[str]
                   ) -> RuleViolation | None:
    victim = event["victim"]
    room = _room_of(game, victim)
    if isinstance(room, RuleViolation):
        return room
    if crowds[room] < 2:
        return RuleViolation("fight", _("{character} is alone in {room}: a fight needs "
                             "two or more characters in the room")
                             .format(character=character_word(victim), room=room))
    return None


def _escape_refusal(game: RumbleState, event: dict[str, Any]) -> RuleViolation | None:
    character = event["character"]
    room = _room_of(game, character)
    if isinstance(room, RuleViolation):
        return room
    entry_room = game.options["map"]["entry"]
    if room != entry_room:
        return RuleViolation("escape-entry", _("{character} is in {room}: only from "
                             "the entry room {entry} can a character escape")
                             .format(character=character_word(character), room=room,
                                     entry=entry_room))
    if game.chest != entry_room:
        if game.chest:
            return RuleViolation("escape-chest", _("the chest is in {room}, not in the entry "
                                 "{entry}: a character escapes only with the chest")
                                 .format(room=game.chest, entry=entry_room))
        return RuleViolation("escape-chest", _("the chest is gone, not in the entry {entry}: "
                             "a character escapes only with the chest").format(entry=entry_room))
    return None


# --- what seats may do ---------------------------------------------------------------

def waiting_for(game: RumbleState) -> list[int]:
    """Seats whose secret characters the companion still needs before play goes on."""
    pairs = game.secrets[game.adventure]
    if game.phase == REVEAL:
        return [seat for seat, pair in enumerate(pairs) if pair is None]
    if game.phase == PLAY and game.actions == 0 and game.options["deal_secrets"] \
            and game.source[game.adventure] == "given":
        return [seat for seat, pair in enumerate(pairs) if pair is None]
    return []


def candidates(game: RumbleState, seat: int) -> list[dict[str, Any]]:
    """Every action the screens offer ``seat``: each character's moves, fights, escape."""
    if game.phase != PLAY or seat != game.turn:
        return []
    return _offered(game, seat, legal_only=False)


def legal_actions(game: RumbleState, seat: int) -> list[dict[str, Any]]:
    """The events ``seat`` may send now (empty when it is not that seat's turn): the
    ``candidates`` that no refusal stops, in their order, found without making refusals."""
    if game.phase != PLAY or seat != game.turn or turn_refusal(game, seat) is not None:
        return []
    return _offered(game, seat, legal_only=True)


def _offered(game: RumbleState, seat: int, legal_only: bool) -> list[dict[str, Any]]:
    """The candidates, or only those no refusal stops. A candidate's character is on the
    map and its door leads from its room, so what is left to decide is: a move without the
    chest needs its character alone, a move with the chest is offered only where the chest
    is, a fight needs company, an escape needs the entry room with the chest in it."""
    crowds = Counter(game.positions.values())
    entry_room, chest, found = game.options["map"]["entry"], game.chest, []
    for character, room in game.positions.items():
        alone, with_chest = crowds[room] == 1, chest == room
        for to in game.doors[room]:
            if alone or not legal_only:
                found.append({"type": "move", "seat": seat, "character": character, "to": to,
                              "chest": False})
            if with_chest:
                found.append({"type": "move", "seat": seat, "character": character,
                              "to": to, "chest": True})
        if not alone or not legal_only:
            found.append({"type": "fight", "seat": seat, "victim": character})
        if ((room == entry_room and with_chest)
                or (not legal_only and room in (entry_room, chest))):
            found.append({"type": "escape", "seat": seat, "character": character})
    return found


def refused_actions(game: RumbleState, seat: int) -> list[dict[str, Any]]:
    """The offered actions that are not allowed, each with its rule and reason."""
    refused = []
    for event in candidates(game, seat):
        why = refusal(game, event)
        if why:
            refused.append({"event": event, "rule": why.rule, "reason": why.message})
    return refused
