"""What the Tricky Dungeon screens show: the public view, each seat's view, the referee's.

Every key is documented in the game's README.md. The only secret the companion holds is the
random dungeon's hero pile: heroes not yet drawn appear in the referee view only. The
Ninja's face-down card is unknown to the companion until revealed, so no view can leak it.
"""

from __future__ import annotations

from typing import Any

from companion.bundles.tricky.rules.heroes import title
from companion.bundles.tricky.rules.round import HERO, OVER, PLAY, PREPARE, WAITING, Round
from companion.bundles.tricky.rules.state import TrickyState
from companion.games.base import seat_view
from companion.games.views import score_of, view_of
from companion.i18n import NP_, _, current, npgettext, pgettext, translated, translated_in

#: The trump symbols and the phases, as the screens and the pages name them.
SYMBOLS = (NP_("web", "spells"), NP_("web", "potions"), NP_("web", "torches"))
PHASES = (NP_("web", "deal"), NP_("web", "hero"), NP_("web", "prepare"), NP_("web", "play"),
          NP_("web", "reveal"), NP_("web", "finished"))


def phase(game: TrickyState) -> str:
    """deal | hero | prepare | play | reveal | finished."""
    r = game.current
    if game.finished and game.history:
        return "finished"
    if r is None or r.phase == OVER:
        return "deal"
    if r.phase == PLAY and r.trick_full():
        return "reveal"
    return r.phase


def view(game: TrickyState, seat: int | None) -> dict[str, Any]:
    # A seat's view is the public one (worked out once per state) and the seat's own part.
    public = public_view(game) if seat is None else dict(view_of(game, None))
    return seat_view(public, seat, lambda seat: {
        "your_turn": public["to_play"] == seat,
        "prompt": _prompt(game, seat),
        "hero_choices": game.hero_choices(seat),
        "exchange_limit": game.exchange_limit(seat),
    })


def referee_view(game: TrickyState) -> dict[str, Any]:
    everything = public_view(game)
    r = game.current
    everything["hero_pile"] = list(r.offers) if r else []
    return everything


class _History:
    """The finished rounds as the views list them, worked out once per history: a history
    (a tuple of finished rounds) is shared by every state until the next round ends, so the
    views of a long game do not read every round again at every event."""

    def __init__(self, history: tuple[Any, ...]) -> None:
        self.history = history  # kept: its id stays its own while this is kept
        self.tricks = [list(done.tricks) for done in history]
        self.heroes = [{"active": done.active, "hero": done.hero} for done in history]
        self.lines: dict[tuple[str, tuple[str, ...]], list[str]] = {}


#: Histories kept: the latest few rounds' (an undo may go back over a round's end).
HISTORIES_KEPT = 8
_HISTORIES: dict[int, _History] = {}


def history_of(game: TrickyState) -> _History:
    found = _HISTORIES.get(id(game.history))
    if found is None or found.history is not game.history:
        if len(_HISTORIES) >= HISTORIES_KEPT:
            _HISTORIES.clear()
        found = _HISTORIES[id(game.history)] = _History(game.history)
    return found


def public_view(game: TrickyState) -> dict[str, Any]:
    r = game.current
    n = len(game.seats)
    done = history_of(game)
    done_tricks = done.tricks
    playing = r is not None and r.phase != OVER
    variant = game.options["variant"]
    score = score_of(game)
    view: dict[str, Any] = {
        "variant": variant,
        "hero_set": None if variant == "random" else game.options["hero_set"],
        "phase": phase(game),
        "round": len(game.history) + (1 if playing else 0),
        "rounds_total": game.rounds_to_play(),
        "tricks_per_round": game.hand_size(),
        "to_play": game.to_play(),
        "gold": score.totals,
        "round_gold": score.rounds,
        "heroes_played": done.heroes,
        "heroes_used": [list(used) for used in game.heroes_used],
        "tricks": done_tricks + ([list(r.won)] if playing and r else []),
        "revokes": [revoke.as_view() for revoke in game.revokes],
        "winners": score.winners,
    }
    # Between rounds the screens keep showing the round just finished.
    view.update(_round_view(r, n))
    return view


def _round_view(r: Round | None, n: int) -> dict[str, Any]:
    if r is None:
        return {"active": None, "hero": None, "trump": None, "hero_offer": None,
                "refused": [], "open_cards": [], "exchanges": [None] * n, "discards": [],
                "prediction": None, "leader": None, "trick": [], "trick_number": None,
                "won": [0] * n, "collected": [[] for _ in range(n)], "last_trick": None,
                "voids": [[] for _ in range(n)]}
    return {
        "active": r.active,
        "hero": r.hero,
        "trump": dict(r.trump) if r.trump else None,
        "hero_offer": r.offer() if r.phase == HERO and r.offers else None,
        "refused": list(r.refused),
        "open_cards": list(r.open_cards),
        "exchanges": list(r.exchanged),
        "discards": list(r.discards),
        "prediction": r.prediction,
        "leader": r.leader,
        "trick": [p.as_view() for p in r.trick],
        "trick_number": r.trick_number() if r.phase == PLAY else None,
        "won": list(r.won),
        "collected": [list(cards) for cards in r.collected],
        "last_trick": r.last_trick.as_view() if r.last_trick else None,
        "voids": [sorted(voids) for voids in r.voids],
    }


def _prompt(game: TrickyState, seat: int) -> str | None:
    """A short line for the seat's 128x64 screen: what it should do now, or None."""
    now, r = phase(game), game.current
    if now == "finished":
        return pgettext("text", "Game over")
    if now == "deal" or r is None:
        return None
    active = seat == r.active
    if now == HERO:
        if not active:
            return None
        if game.options["variant"] == "random":
            return pgettext("text", "Take or refuse the {hero}").format(hero=title(r.offer()))
        return pgettext("text", "Choose a hero")
    to_play = game.to_play()
    if now == "reveal":
        return pgettext("text", "Reveal your face-down card") if seat == to_play else None
    if now == PREPARE:
        waiting = r.waiting_for()
        if waiting and waiting[0] == seat:
            return pgettext("text", WAITING[waiting[1]])
        limit = game.exchange_limit(seat)
        if limit:
            return npgettext("text", "Exchange up to {n} card", "Exchange up to {n} cards",
                             limit).format(n=limit)
        if waiting is not None:
            return None
    if seat != to_play:
        return None
    face_down = r.hero == "ninja" and active
    if not r.trick:
        return pgettext("text", "Lead a card face down") if face_down \
            else pgettext("text", "Lead a card")
    led = r.lead_suit(game.deck)
    suit = _(led) if led else ""
    return (pgettext("text", "Play {suit} face down if you can") if face_down
            else pgettext("text", "Play {suit} if you can")).format(suit=suit)


def trump_words(trump: dict[str, Any] | None) -> str:
    """The round's trump in the language drawn ("trump red 3", "trump spells", "no trump"):
    the seats' screens and the pages say it alike."""
    given = trump or {}
    parts = [_(str(given[key])) for key in ("suit", "value") if given.get(key) is not None]
    if given.get("symbol"):
        parts.append(translated_in("web", given["symbol"]))
    return _("trump {trump}").format(trump=" ".join(parts)) if parts else _("no trump")


def hero_and_trump(hero: str | None, trump: dict[str, Any] | None) -> str:
    """The round's hero and trump, for the table screen: "Knight, trump red 3"; "no hero yet"
    while the active player chooses (the trump comes with the hero)."""
    if not hero:
        return pgettext("web", "no hero yet")
    return f"{title(hero)}, {trump_words(trump)}"


def rounds_in_words(game: TrickyState, state: dict[str, Any]) -> list[str]:
    """A line per finished round; said once per history, language and names when ``state``
    lists the game's own history (its view's), else every time."""
    names = game.seats

    def said() -> list[str]:
        return [pgettext("web", "round {n}: {player} as the {hero}, gold {gold}").format(
            n=number, player=names[done["active"]], hero=title(done["hero"]),
            gold=", ".join(map(str, state["round_gold"][number - 1])))
            for number, done in enumerate(state["heroes_played"], start=1)]

    done = history_of(game)
    if state["heroes_played"] is not done.heroes:
        return said()
    key = (current(), tuple(names))
    lines = done.lines.get(key)
    if lines is None:
        lines = done.lines[key] = said()
    return lines


def state_in_words(game: TrickyState, state: dict[str, Any]) -> list[str]:
    """The public view as lines a person reads, in the language drawn (the web pages)."""
    names = game.seats
    lines = [pgettext("web", "round {n} of {total}, {phase}").format(
        n=state["round"], total=state["rounds_total"] or "?",
        phase=translated_in("web", state["phase"]))]
    if state["active"] is not None:
        hero = title(state["hero"]) if state["hero"] else pgettext("web", "no hero yet")
        lines.append(pgettext("web", "{player} is active: {hero}").format(
            player=names[state["active"]], hero=hero))
    if state["trump"]:
        lines.append(trump_words(state["trump"]))
    if state["to_play"] is not None:
        lines.append(pgettext("web", "{player} to play").format(player=names[state["to_play"]]))
    lines += rounds_in_words(game, state)
    for revoke in state["revokes"]:
        lines.append(pgettext("web", "revoke: {player} played {suit} in round {n} after "
                              "showing out in trick {trick}").format(
            player=names[revoke["seat"]], suit=translated(revoke["suit"]), n=revoke["round"],
            trick=revoke["trick"]))
    return lines
