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
    table.daemon.display.refresh()
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
    from companion.games import registry

    _, events = registry.get("tricky").random_game(seed, 4)
    second_deal = [n for n, e in enumerate(events) if e["type"] == "deal"][1]
    played = {e.get("card") for e in events[:second_deal]}  # the first round's cards
    card = next(e["card"] for e in events if e["type"] == "play" and "card" in e)
    other = next(i.item_id for i in registry.get("tricky").art_items()
                 if i.item_id not in played and i.item_id != card)
    return card, other


def test_a_misread_card_is_corrected_then_the_correction_taken_back(tmp_path):
    card, other = first_card()
    with CameraTable(tmp_path, misread={card: other}) as table:
        play = table.play_until_a_card()
        assert play["card"] == card
        table.put_down(play["seat"], [card])
        entries = table.stored_game.session.events
        assert without_time(entries[-1:]) == [{**play, "card": other}]  # read wrong, sure
        misread_result = table.stored_game.session.result()
        look = table.daemon.display.camera
        done = correct(table, look=look.number, reading=reading_of(look, other), item_id=card)
        assert done.error is None
        assert without_time(entries[-2:]) == [{"type": "undo"}, play]
        assert done.seqs == [len(entries) - 1, len(entries)]
        assert table.stored_game.session.result() == replayed(
            table.header, table.stored_game.session.in_force)
        assert table.stored_game.session.in_force[-1] == entries[-1]
        # On the picture: the reading corrected; kept with the corrected event.
        look = table.daemon.display.camera
        assert (look.readings[reading_of(look, card)].item_id, look.states[0]) == (card,
                                                                                  "corrected")
        kept = {p.seq: p for p in pictures(table.store.db, table.stored_game.id)}
        assert [r["state"] for r in kept[len(entries)].about["readings"]] == ["corrected"]
        # Taken back: the camera's reading stands again, as it was.
        back = correct(table, look=look.number, undo=True)
        assert back.error is None and len(back.seqs) == 2
        assert without_time(entries[-2:]) == [{"type": "undo"}, {**play, "card": other}]
        assert table.stored_game.session.result() == misread_result
        assert table.daemon.display.camera.states == ["sure"]
        # Corrected again, and the game goes on from the card really played.
        assert correct(table, look=look.number, reading=0, item_id=card).error is None
        table.next += 1
        following = table.play_until_a_card()
        table.play(following)
        assert without_time(table.stored_game.session.in_force[-1:]) == [following]
    # Durable: the store, opened again, replays to the same game.
    with TableStore(tmp_path / "table.db") as store:
        again = store.open_session(1)
        assert without_time(again.session.events) == without_time(entries)


def test_a_card_left_out_is_named_and_becomes_the_play(tmp_path):
    card, _ = first_card()
    with CameraTable(tmp_path, unknown=(card,)) as table:
        play = table.play_until_a_card()
        count = len(table.stored_game.session.events)
        table.put_down(play["seat"], [card])
        assert len(table.stored_game.session.events) == count  # nothing read, nothing stored
        look = table.daemon.display.camera
        [left] = [n for n, state in enumerate(look.states) if state == "left out"]
        assert look.readings[left].item_id is None
        done = correct(table, look=look.number, reading=left, item_id=card)
        assert done.error is None and done.seqs == [count + 1]  # the play alone, no undo
        assert without_time(table.stored_game.session.events[count:]) == [play]


def test_not_a_card_takes_the_camera_s_event_back(tmp_path):
    card, other = first_card()
    with CameraTable(tmp_path, misread={card: other}) as table:
        play = table.play_until_a_card()
        table.put_down(play["seat"], [card])
        before = len(table.stored_game.session.in_force)
        look = table.daemon.display.camera
        done = correct(table, look=look.number, reading=0, item_id=None)
        assert done.error is None
        assert without_time(table.stored_game.session.events[-1:]) == [{"type": "undo"}]
        assert len(table.stored_game.session.in_force) == before - 1
        assert table.daemon.display.camera.states == ["not a card"]


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
        entries = list(table.stored_game.session.events)
        look = table.daemon.display.camera
        done = correct(table, **{"look": look.number, **fields})
        assert said in str(done.error)
        assert table.stored_game.session.events == entries
        assert table.daemon.display.camera.states == ["sure"]


def test_a_correction_the_rules_refuse_or_a_stale_one_changes_nothing(tmp_path):
    with CameraTable(tmp_path) as table:
        first = table.play_until_a_card()
        table.play(first)
        second = table.play_until_a_card()
        table.put_down(second["seat"], [second["card"]])
        entries = list(table.stored_game.session.events)
        look = table.daemon.display.camera
        # The card played before, again in this trick: the rules refuse it.
        done = correct(table, look=look.number, reading=0, item_id=first["card"])
        assert "card-played" in str(done.error)
        assert table.stored_game.session.events == entries
        # An event stored after the camera's: the correction would have to undo it.
        table.next += 1
        table.play(table.play_until_a_card())
        newer = table.daemon.display.camera
        entries = list(table.stored_game.session.events)
        stale = correct(table, look=look.number, reading=0, item_id=second["card"])
        assert "newer picture" in str(stale.error) and stale.error.conflict
        assert newer.number > look.number
        assert table.stored_game.session.events == entries


CARD, LOOK_ALIKE = "green-4", "yellow-0"  # seed 3's first card, and what it is read as


def unsure_table(tmp_path) -> tuple[CameraTable, dict]:
    """The camera reads the first card as its look-alike, unsure: the table is asked."""
    table = CameraTable(tmp_path, near={CARD: LOOK_ALIKE})
    play = table.play_until_a_card()
    assert play["card"] == CARD
    table.put_down(play["seat"], [CARD])
    assert table.daemon.display.asked is not None
    return table, play


def test_taking_back_a_correction_of_an_unsure_reading_asks_it_again_and_stores_no_play(
        tmp_path):
    """Issue 53: the take-back stored an undo and a play of the unsure reading, which nobody
    ever confirmed, and the question was not asked again."""
    table, play = unsure_table(tmp_path)
    with table:
        entries = table.stored_game.session.events
        count = len(entries)
        look = table.daemon.display.camera
        [asked] = table.daemon.display.asked.readings
        done = correct(table, look=look.number, reading=asked, item_id=CARD)
        assert done.error is None and without_time(entries[count:]) == [play]
        assert table.daemon.display.asked is None  # the question went with the correction
        back = correct(table, look=look.number, undo=True)
        assert back.error is None and back.seqs == [count + 2]
        assert without_time(entries[count:]) == [play, {"type": "undo"}]
        assert len(table.stored_game.session.in_force) == count - entries[:count].count(
            {"type": "undo"})
        # As it stood before the correction: the reading unsure, and asked again.
        question = table.daemon.display.asked
        assert question is not None and question.event["card"] == LOOK_ALIKE
        assert table.daemon.display.camera.states[asked] == "asked"
        assert not [e for e in entries if e.get("card") == LOOK_ALIKE]
        # Answered this time by a phone: the card it really is.
        from companion.daemon.questions import Answer

        answered = Answer(question.number, CARD, play["seat"])
        table.daemon.handle(answered)
        assert answered.error is None and without_time(entries[-1:]) == [play]
    with TableStore(tmp_path / "table.db", read_only=True) as store:
        assert not [e for e in store.load(1)[1] if e.get("card") == LOOK_ALIKE]


def test_a_correction_sent_twice_or_changing_nothing_stores_nothing_again(tmp_path):
    """Issue 53: a double-submitting phone doubled a correction (an undo and the play again
    each time)."""
    card, other = first_card()
    with CameraTable(tmp_path, misread={card: other}) as table:
        play = table.play_until_a_card()
        table.put_down(play["seat"], [card])
        entries = table.stored_game.session.events
        look = table.daemon.display.camera
        first = correct(table, look=look.number, reading=0, item_id=card, request="tap-0001")
        stored = list(entries)
        again = correct(table, look=look.number, reading=0, item_id=card, request="tap-0001")
        assert again.error is None and again.seqs == first.seqs and entries == stored
        same = correct(table, look=look.number, reading=0, item_id=card, request="tap-0002")
        assert same.error is None and same.seqs == [] and entries == stored
        back = correct(table, look=look.number, undo=True, request="tap-0003")
        twice = correct(table, look=look.number, undo=True, request="tap-0003")
        assert back.error is None and twice.seqs == back.seqs
        assert without_time(entries[len(stored):]) == [{"type": "undo"}, {**play, "card": other}]


def test_a_correction_is_one_transaction_a_full_disk_stores_none_of_it(tmp_path):
    """Issue 53: an undo then the corrected play, stored apart: a full disk (or a kill)
    between them left the card withdrawn with nothing in its place; and the page said
    "not all of it was stored" when nothing was."""
    card, other = first_card()
    with CameraTable(tmp_path, misread={card: other}) as table:
        play = table.play_until_a_card()
        table.put_down(play["seat"], [card])
        look = table.daemon.display.camera
        pages = table.store.db.execute("PRAGMA page_count").fetchone()[0]
        table.store.db.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full
        for n in range(2000):
            done = correct(table, look=look.number, reading=0, item_id=(card, other)[n % 2])
            if done.error is not None:
                break
        assert str(done.error) == "storage full: not recorded" and done.error.conflict
        entries = list(table.stored_game.session.events)
        with TableStore(tmp_path / "table.db", read_only=True) as store:
            assert store.load(1)[1] == entries
        assert without_time(table.stored_game.session.in_force[-1:]) == [
            {**play, "card": (card, other)[(n + 1) % 2]}]  # the card as the last one stood
        table.store.db.execute("PRAGMA max_page_count = 1000000000")
        assert correct(table, look=look.number, reading=0, item_id=(card, other)[n % 2]
                       ).error is None


def test_a_card_corrected_once_is_read_by_the_camera_from_the_next_picture_on(tmp_path):
    """The camera learns its table: a card of another print run than the one enrolled is
    left out; named with a tap, its crop is kept as a sample of it (``cards.samples.npz``
    beside the library), and the next picture of it reads it, sure."""
    card, _ = first_card()
    with CameraTable(tmp_path, learns=True, other_print=(card,)) as table:
        play = table.play_until_a_card()
        table.put_down(play["seat"], [card])
        look = table.daemon.display.camera
        assert card not in [r.item_id for r in look.readings]
        left_out = next(n for n, r in enumerate(look.readings) if r.item_id is None)
        assert correct(table, look=look.number, reading=left_out, item_id=card).error is None
        # The same card before the camera again (elsewhere on the table).
        table.put_down((play["seat"] + 1) % 4, [card])
        look = table.daemon.display.camera
        read = {r.item_id: state for r, state in zip(look.readings, look.states, strict=True)}
        assert read.get(card) == "sure"
        assert [i for i, _ in table.eyes.watcher.recognizer.library.samples] == [card]
        assert (tmp_path / "cards.samples.npz").exists()
