"""A reading of the camera put right on the controls page goes through the rules like any
event (issue 41): an undo of the camera's event and the corrected event, or the corrected
event alone; each durable before it is shown; checked whole before anything is stored, so a
refused correction changes nothing; and itself taken back. The real daemon loop, store,
vision pipeline and rules, in the test's thread."""

from __future__ import annotations

import pytest
from camera_table import CameraTable

from companion.daemon.corrections import Correct
from companion.table import TableStore
from companion.table.pictures import pictures
from companion.table.session import TableSession


def without_time(entries):
    return [{k: v for k, v in e.items() if k != "t"} for e in entries]


def correct(table: CameraTable, **fields) -> Correct:
    item = Correct(**fields)
    table.daemon.handle(item)
    table.daemon.shown.refresh()
    assert item.done.is_set()
    return item


def reading_of(look, card) -> int:
    return next(n for n, r in enumerate(look.readings) if r.item_id == card)


def replayed(header, entries):
    session = TableSession(header)
    for entry in entries:
        session.apply(entry)
    return session.result()


def first_card(seed: int = 3) -> tuple[str, str]:
    """The game's first card played face up, and another card of the deck to misread it as."""
    from companion import bundles

    _, events = bundles.get("tricky").random_game(seed, 4)
    second_deal = [n for n, e in enumerate(events) if e["type"] == "deal"][1]
    played = {e.get("card") for e in events[:second_deal]}  # the first round's cards
    card = next(e["card"] for e in events if e["type"] == "play" and "card" in e)
    other = next(i.item_id for i in bundles.get("tricky").art_items()
                 if i.item_id not in played and i.item_id != card)
    return card, other


def test_a_misread_card_is_corrected_then_the_correction_taken_back(tmp_path):
    card, other = first_card()
    with CameraTable(tmp_path, misread={card: other}) as table:
        play = table.play_until_a_card()
        assert play["card"] == card
        table.put_down(play["seat"], [card])
        entries = table.session.session.entries
        assert without_time(entries[-1:]) == [{**play, "card": other}]  # read wrong, sure
        misread_result = table.session.session.result()
        look = table.daemon.shown.camera
        done = correct(table, look=look.number, reading=reading_of(look, other), item_id=card)
        assert done.error is None
        assert without_time(entries[-2:]) == [{"type": "undo"}, play]
        assert done.seqs == [len(entries) - 1, len(entries)]
        assert table.session.session.result() == replayed(
            table.header, table.session.session.in_force)
        assert table.session.session.in_force[-1] == entries[-1]
        # On the picture: the reading corrected; kept with the corrected event.
        look = table.daemon.shown.camera
        assert (look.readings[reading_of(look, card)].item_id, look.states[0]) == (card,
                                                                                  "corrected")
        kept = {p.seq: p for p in pictures(table.store.db, table.session.id)}
        assert [r["state"] for r in kept[len(entries)].about["readings"]] == ["corrected"]
        # Taken back: the camera's reading stands again, as it was.
        back = correct(table, look=look.number, undo=True)
        assert back.error is None and len(back.seqs) == 2
        assert without_time(entries[-2:]) == [{"type": "undo"}, {**play, "card": other}]
        assert table.session.session.result() == misread_result
        assert table.daemon.shown.camera.states == ["sure"]
        # Corrected again, and the game goes on from the card really played.
        assert correct(table, look=look.number, reading=0, item_id=card).error is None
        table.next += 1
        following = table.play_until_a_card()
        table.play(following)
        assert without_time(table.session.session.in_force[-1:]) == [following]
    # Durable: the store, opened again, replays to the same game.
    with TableStore(tmp_path / "table.db") as store:
        again = store.open_session(1)
        assert without_time(again.session.entries) == without_time(entries)


def test_a_card_left_out_is_named_and_becomes_the_play(tmp_path):
    card, _ = first_card()
    with CameraTable(tmp_path, unknown=(card,)) as table:
        play = table.play_until_a_card()
        count = len(table.session.session.entries)
        table.put_down(play["seat"], [card])
        assert len(table.session.session.entries) == count  # nothing read, nothing stored
        look = table.daemon.shown.camera
        [left] = [n for n, state in enumerate(look.states) if state == "left out"]
        assert look.readings[left].item_id is None
        done = correct(table, look=look.number, reading=left, item_id=card)
        assert done.error is None and done.seqs == [count + 1]  # the play alone, no undo
        assert without_time(table.session.session.entries[count:]) == [play]


def test_not_a_card_takes_the_camera_s_event_back(tmp_path):
    card, other = first_card()
    with CameraTable(tmp_path, misread={card: other}) as table:
        play = table.play_until_a_card()
        table.put_down(play["seat"], [card])
        before = len(table.session.session.in_force)
        look = table.daemon.shown.camera
        done = correct(table, look=look.number, reading=0, item_id=None)
        assert done.error is None
        assert without_time(table.session.session.entries[-1:]) == [{"type": "undo"}]
        assert len(table.session.session.in_force) == before - 1
        assert table.daemon.shown.camera.states == ["not a card"]


@pytest.mark.parametrize(("fields", "said"), [
    ({"reading": 7, "item_id": "red-1"}, "reading: no reading 7"),
    ({"reading": 0, "item_id": "purple-9"}, "id: purple-9 is not a card"),
    ({"look": 999, "reading": 0, "item_id": "red-1"}, "look: no such picture"),
    ({"undo": True}, "undo: no correction of this picture"),
])
def test_a_bad_correction_is_refused_naming_its_field_and_changes_nothing(tmp_path, fields,
                                                                           said):
    card, other = first_card()
    with CameraTable(tmp_path, misread={card: other}) as table:
        play = table.play_until_a_card()
        table.put_down(play["seat"], [card])
        entries = list(table.session.session.entries)
        look = table.daemon.shown.camera
        done = correct(table, **{"look": look.number, **fields})
        assert said in str(done.error)
        assert table.session.session.entries == entries
        assert table.daemon.shown.camera.states == ["sure"]


def test_a_correction_the_rules_refuse_or_a_stale_one_changes_nothing(tmp_path):
    with CameraTable(tmp_path) as table:
        first = table.play_until_a_card()
        table.play(first)
        second = table.play_until_a_card()
        table.put_down(second["seat"], [second["card"]])
        entries = list(table.session.session.entries)
        look = table.daemon.shown.camera
        # The card played before, again in this trick: the rules refuse it.
        done = correct(table, look=look.number, reading=0, item_id=first["card"])
        assert "card-played" in str(done.error)
        assert table.session.session.entries == entries
        # An event stored after the camera's: the correction would have to undo it.
        table.next += 1
        table.play(table.play_until_a_card())
        newer = table.daemon.shown.camera
        entries = list(table.session.session.entries)
        stale = correct(table, look=look.number, reading=0, item_id=second["card"])
        assert "newer picture" in str(stale.error) and stale.error.conflict
        assert newer.number > look.number
        assert table.session.session.entries == entries
