"""What the rules may take now (``Game.events_now``), which a seat's page offers under **Tell
the table**: over whole random games of the four games, every event played was among the
types its seat was offered just before (none left out), and some types the rules refuse
whatever their fields are not offered (a pig once the play has begun, a deal mid-round)."""

import pytest
from web_table import random_game

from companion.bundles.traps.rules.engine import Traps
from companion.table.session import TableSession

GAMES = {"deathtrap": 4, "rumble": 3, "traps": 2, "tricky": 3}


def offered(session: TableSession, event: dict) -> bool:
    """``event``'s type was offered to its seat (a seatless one: to every seat)."""
    seats = [event["seat"]] if "seat" in event else range(len(session.header.seats))
    return all(event["type"] in session.game.events_now(seat) for seat in seats)


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("seed", range(4))
def test_every_event_played_was_offered_to_its_seat(game, seed):
    header, events = random_game(game, seed, GAMES[game])
    session = TableSession(header)
    for number, event in enumerate(events, start=1):
        assert offered(session, event), (game, seed, number, event,
                                         session.game.events_now(event.get("seat", 0)))
        session.apply(event)
    assert all(session.game.events_now(seat) == [] for seat in range(GAMES[game])
               ) or game == "traps"


def test_deathtrap_offers_the_pig_before_the_play_only_and_a_deal_between_rounds():
    header, events = random_game("deathtrap", 4, 4)
    session = TableSession(header)
    phases = set()
    for event in events:
        session.apply(event)
        state, game = session.result(None)["state"], session.game
        phases.add(state["phase"])
        for seat in range(4):
            kinds = game.events_now(seat)
            assert ("pig" in kinds) <= (state["phase"] == "pig"), (state["phase"], kinds)
            assert ("deal" in kinds) == (state["phase"] in ("deal", "exchange")), kinds
            assert ("pass" in kinds) <= (seat == state["turn"]), (seat, kinds)
    assert {"pig", "play", "exchange"} <= phases


def test_tricky_offers_the_hero_to_the_active_player_alone():
    header, events = random_game("tricky", 2, 3)
    session = TableSession(header)
    session.apply(events[0])  # the deal
    active = session.result(None)["state"]["active"]
    assert [session.game.events_now(seat) for seat in range(3)] == [
        ["hero"] if seat == active else [] for seat in range(3)]


def test_traps_offers_a_counterattack_while_a_jaws_of_doom_figure_is_on_the_board():
    dials = {"T1": ["start", {"trap": "jaws-of-doom", "disarm": 10, "xp": 20}],
             "T2": ["start", {"trap": "spiked-pit", "disarm": 7, "xp": 10}]}
    game = Traps(["Ann", "Bob"], seed=1, options={"squares": ["T1", "T2"], "dials": dials})
    assert game.events_now(0) == ["expose", "trigger"]  # nothing exposed yet: no disarm
    game.apply({"type": "trigger", "seat": 1, "square": "T1", "clicks": 1})
    assert "counterattack" in game.events_now(0) and "disarm" in game.events_now(0)
    game.apply({"type": "counterattack", "seat": 1, "square": "T1", "damaged": False})
    assert "counterattack" not in game.events_now(0)  # the figure left the board
