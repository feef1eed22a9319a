"""What the deathtrap screens and the referee see, and the figures after a game.

Every key is documented in the game's README.md. The companion keeps count of the cards each seat
holds, never the cards themselves; a seat's own view adds its exchange instruction.
"""

from __future__ import annotations

from typing import Any

from companion.bundles.deathtrap.rules.state import DeathtrapState
from companion.games.base import per_seat
from companion.i18n import N_, NP_, ngettext, pgettext, translated_in

TITLES = (N_("The Big Hero"), N_("The Hero"), N_("The Wimp"), N_("The Total Wimp"))


def exchanges(game: DeathtrapState) -> list[dict[str, Any]]:
    """Who gives what to whom before the next deal (empty when no exchange is due)."""
    if game.phase != "exchange":
        return []
    order = game.history[-1]
    big_hero, hero, wimp, total_wimp = order[0], order[1], order[-2], order[-1]
    return [{"from": total_wimp, "to": big_hero, "count": 2, "cards": "highest"},
            {"from": big_hero, "to": total_wimp, "count": 2, "cards": "any"},
            {"from": wimp, "to": hero, "count": 1, "cards": "highest"},
            {"from": hero, "to": wimp, "count": 1, "cards": "any"}]


def titles(game: DeathtrapState) -> list[str | None]:
    """The titles of the latest finished round, per seat (None: no title)."""
    titles: list[str | None] = [None] * len(game.seats)
    if game.history:
        order = game.history[-1]
        for title, seat in zip(TITLES, (order[0], order[1], order[-2], order[-1]),
                               strict=True):
            titles[seat] = title
    return titles


def view(game: DeathtrapState, seat: int | None) -> dict[str, Any]:
    state: dict[str, Any] = {
        "round": game.round,
        "rounds": game.options["rounds"],
        "phase": game.phase,
        "dealer": game.dealer,
        "counts": list(game.counts),
        "leader": game.leader,
        "turn": game.turn,
        "to_beat": _record(game.to_beat, count=len(game.to_beat["cards"]))
        if game.to_beat else None,
        "passed": list(game.passed),
        "last": _record(game.last) if game.last else None,
        "pig": dict(game.pig) if game.pig else None,
        "played": dict(game.played),
        "finish_order": game.finish_order(),
        "titles": titles(game),
        "totals": game.totals(),
    }
    if seat is not None:
        mine = [dict(e) for e in exchanges(game) if seat in (e["from"], e["to"])]
        state.update({"seat": seat, "your_turn": game.turn == seat,
                      "your_count": game.counts[seat], "exchange": mine,
                      "prompt": prompt(game, seat, mine)})
    return state


def prompt(game: DeathtrapState, seat: int, mine: list[dict[str, Any]]) -> str | None:
    """The private exchange instruction for ``seat``'s screen."""
    give = next((e for e in mine if e["from"] == seat), None)
    if give is None:
        return None
    count, other = give["count"], game.seats[give["to"]]
    if give["cards"] == "highest":
        return ngettext("Give your highest creature card to {player}, then take 1 back",
                        "Give your {n} highest creature cards to {player}, then take {n} "
                        "back", count).format(n=count, player=other)
    return ngettext("Take {n} card from {player}, give back any {n}",
                    "Take {n} cards from {player}, give back any {n}",
                    count).format(n=count, player=other)


def referee_view(game: DeathtrapState) -> dict[str, Any]:
    state = view(game, None)
    state["exchange"] = exchanges(game)
    state["prompts"] = [prompt(game, seat, exchanges(game)) for seat in range(len(game.seats))]
    return state


def figures(game: DeathtrapState) -> dict[str, list[Any]]:
    """Rounds each seat ended as The Big Hero (first out) and The Total Wimp (last)."""
    seats = len(game.seats)
    return {"big_hero": per_seat(seats, (order[0] for order in game.history)),
            "total_wimp": per_seat(seats, (order[-1] for order in game.history))}


#: The phases as the pages' state lines name them (``pgettext("web", phase)``).
PHASES = (NP_("web", "deal"), NP_("web", "pig"), NP_("web", "play"), NP_("web", "exchange"),
          NP_("web", "over"))


def state_in_words(game: DeathtrapState, state: dict[str, Any]) -> list[str]:
    """The public view as lines a person reads, in the language drawn (the web pages)."""
    names = game.seats
    lines = [pgettext("web", "round {n} of {total}, {phase}").format(
        n=state["round"], total=state["rounds"], phase=translated_in("web", state["phase"]))]
    if state["turn"] is not None:
        lines.append(pgettext("web", "{player} to play").format(player=names[state["turn"]]))
    beat = state["to_beat"]
    if beat:
        lines.append(pgettext("web", "to beat: {count} x {card} ({value}) by {player}").format(
            count=beat["count"], card=beat["name"], value=beat["value"],
            player=names[beat["seat"]]))
    lines.append(pgettext("web", "cards in hand: {counts}").format(counts=", ".join(
        f"{name} {count}" for name, count in zip(names, state["counts"], strict=True))))
    for number, order in enumerate(state["finish_order"], start=1):
        if order:
            lines.append(pgettext("web", "round {n} went out: {players}").format(
                n=number, players=", ".join(names[s] for s in order)))
    return lines


def _record(kept: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A caller's own copy of a record (its card list copied too)."""
    record = dict(kept, **extra)
    if "cards" in record:
        record["cards"] = list(record["cards"])
    return record
