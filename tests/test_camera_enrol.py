"""Enrolling a game's deck at the table with the camera (issue 52): the cards are laid on the
play area, the camera takes each as the table settles (the outline new since the scene
before, cut out), names it the next card of the game's list (its bundle's ``cards``) or
lets a tap name it, and once every face is in writes the library where the camera reads it,
atomically; from then on the camera reads those cards. Nothing laid to be enrolled is a
play. The real vision pipeline on rendered frames; the real daemon, camera part, store and
web server."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from camera_enrol import EnrolTable, spot
from helpers import wait_for
from web_table import request

from companion.cli import main
from companion.daemon.stage import Stage
from companion.games import registry
from companion.vision.art import draw_face
from companion.vision.enrol_table import DeckEnrolment, EnrolError
from companion.vision.laid import LaidCards, reading_order
from companion.vision.library import CardLibrary
from companion.vision.recognize import Recognizer
from companion.vision.synthetic import Conditions, Placement
from companion.vision.watch import TableWatcher

#: A Deathtrap table's own deck of three creatures: with the four specials, seven cards.
SMALL_DECK = {"creatures": [{"id": "rat-man", "name": "Rat Man", "value": 1, "copies": 2},
                            {"id": "orc", "name": "Orc", "value": 2, "copies": 2},
                            {"id": "troll", "name": "Troll", "value": 9, "copies": 2}]}


def read(library: CardLibrary, frame: np.ndarray) -> list[str]:
    return sorted(d.item_id for d in Recognizer(library).recognize(frame))


def test_cards_laid_one_by_one_swapped_or_several_are_each_taken_once():
    """The vision pieces alone: outlines new since the last settled frame, cut and named."""
    stage = Stage("tricky", 4, 2, size=(1280, 720))
    rng = np.random.default_rng(4)
    watcher = TableWatcher(CardLibrary(), stage.layout)
    laid = LaidCards(stage.layout)
    cards = ["red-3", "red-4", "blue-0", "green-7", "yellow-2"]
    deck = DeckEnrolment(cards)

    turned = {card: float(rng.uniform(-30, 30)) for card in cards}  # as each card lies

    def settle(placed: dict[int, str]) -> list[str | None]:
        frame = stage.renderer.render(
            [Placement(stage.items[card], spot(n), turned[card]) for n, card in placed.items()],
            rng, Conditions(noise=2), stage.camera).image
        watcher.see(frame)
        return [taken.card for taken in deck.laid([card.face for card in reading_order(
            laid.settled(frame, watcher.rectifier.last_view))])]

    assert settle({}) == []
    assert settle({0: "red-3"}) == ["red-3"]  # alone: the next card
    assert settle({0: "red-3"}) == []  # still there: not taken again
    assert settle({0: "red-3", 1: "red-4"}) == ["red-4"]  # laid beside: only it
    assert settle({0: "red-3", 1: "blue-0"}) == ["blue-0"]  # red-4 swapped for blue-0
    assert settle({}) == []  # swept away
    assert settle({2: "green-7", 3: "yellow-2"}) == [None, None]  # two at once: named by hand
    first, second = deck.waiting  # left to right, as they lie
    deck.name(first.number, "green-7")
    deck.name(second.number, "yellow-2")
    assert deck.ready and deck.next_card() is None
    library = deck.library(CardLibrary())
    assert sorted(library.ids) == sorted(cards)
    frame = stage.renderer.render(
        [Placement(stage.items[card], spot(n + 1), float(rng.uniform(-90, 90)))
         for n, card in enumerate(["blue-0", "red-4", "yellow-2"])], rng,
        Conditions(noise=2), stage.camera).image
    assert read(library, frame) == ["blue-0", "red-4", "yellow-2"]


def enrolment(table: EnrolTable) -> dict | None:
    """The enrolment as the controls page is sent it (the camera channel's)."""
    return (table.web.sent.get("camera") or {}).get("enrolment")


def enrol(table: EnrolTable, **body) -> tuple[int, dict]:
    status, answer = request(table.control() + "/camera/enrol", body)
    return status, json.loads(answer)


def test_a_deck_enrolled_at_the_table_is_written_where_the_camera_reads_it(tmp_path):
    with EnrolTable(tmp_path, {"deck": SMALL_DECK}) as table:
        cards = registry.get("deathtrap").cards(table.daemon.stored_game.game)
        assert cards == ["rat-man", "orc", "troll", "chaindog", "red-lotus", "exploding-pig",
                         "killing-machine"]
        assert enrolment(table)["active"] is False
        assert enrol(table, action="name", crop=1, card="orc")[0] == 409  # none started
        assert enrol(table, action="start") == (200, {"done": "start"})
        wait_for(lambda: enrolment(table)["active"], "the enrolment on the page")
        assert enrolment(table)["prompt"] == "Lay the next card: Rat Man (1 of 7)"
        on_table: dict[int, str] = {}
        for n, card in enumerate(cards[:5]):
            on_table[n] = card
            table.lay(on_table)
            wait_for(lambda n=n: enrolment(table)["named"] == n + 1, f"{card} taken")
        view = enrolment(table)
        assert [taken["card"] for taken in view["taken"]] == cards[:5]
        assert all(taken["crop"].startswith("data:image/jpeg;base64,") for taken in view["taken"])
        assert view["prompt"] == "Lay the next card: Exploding Pig (6 of 7)"
        # The last two laid at once (a new row): each named by a tap.
        table.lay({6: cards[5], 7: cards[6]})
        wait_for(lambda: len(enrolment(table)["taken"]) == 7, "the two cards taken")
        waiting = [taken["n"] for taken in enrolment(table)["taken"] if not taken["card"]]
        assert len(waiting) == 2
        assert enrolment(table)["prompt"] == "Name each card laid: tap it, then its name."
        # Refused, changing nothing: a card of another game, a face never taken.
        status, refused = enrol(table, action="name", crop=waiting[0], card="green-4")
        assert status == 400 and refused["field"] == "card"
        assert enrol(table, action="name", crop=99, card="orc")[1]["field"] == "crop"
        assert enrol(table, action="eat")[1]["field"] == "action"
        assert not (tmp_path / "cards.npz").exists()
        frame = table.frame()  # the two cards as the camera sees them, left to right
        assert enrol(table, action="name", crop=waiting[0], card=cards[5])[0] == 200
        assert enrol(table, action="name", crop=waiting[1], card=cards[6])[0] == 200
        # The deck is ready once written: the page hears it after the file is there.
        assert (tmp_path / "cards.npz").exists()
        wait_for(lambda: enrolment(table)["ready"], "the deck ready on the page")
        assert "7 cards" in enrolment(table)["ready"]
        library = CardLibrary.load(tmp_path / "cards.npz")
        assert set(cards) <= set(library.ids)
        assert "green-4" in library.ids  # the other game's faces kept
        assert read(library, frame) == sorted(cards[5:])
        # The camera reads with it: the cards lying there are read, and no play was made.
        assert table.camera is not None
        wait_for(lambda: table.camera._library_version == 1, "the camera to read the deck")
        assert table.stored_events() == []


def frames_laying(folder, stage: Stage, states: list[dict[int, str]], hold: int = 10):
    """A folder of frames: the table empty, then each state held ``hold`` frames (long
    enough to settle), each card lying as it first lay."""
    rng = np.random.default_rng(5)
    turned: dict[tuple[int, str], float] = {}
    folder.mkdir()
    pictures = []
    for placed in [{}, *states]:
        for n, card in placed.items():
            turned.setdefault((n, card), float(rng.uniform(-30, 30)))
        pictures.append(stage.renderer.render(
            [Placement(stage.items[card], spot(n), turned[(n, card)])
             for n, card in placed.items()], rng, Conditions(noise=2), stage.camera).image)
    count = 0
    for picture in pictures:
        for _ in range(hold):
            cv2.imwrite(str(folder / f"{count:04d}.png"), picture)
            count += 1


def test_a_deck_enrolled_from_a_terminal_keeps_the_librarys_other_faces(tmp_path, capsys):
    stage = Stage("deathtrap", 4, 1)
    cards = registry.get("deathtrap").cards(registry.get("deathtrap").engine(
        ["Ann", "Bob", "Cy", "Dee"], 0, {}))
    states = [{n: card} for n, card in enumerate(cards[:9])]  # each in the last one's stead
    states += [{9: cards[9], 10: cards[10]}, {}]  # two at once: asked one at a time, swept
    states += [{9 + n % 2: card} for n, card in enumerate(cards[9:])]
    frames_laying(tmp_path / "frames", stage, states)
    out = tmp_path / "cards.npz"
    kept = CardLibrary()
    kept.enroll("green-4", draw_face(registry.get("tricky").art_items()[0]))
    kept.save(out)
    assert main(["vision", "enroll", "--frames", str(tmp_path / "frames"), "--game",
                 "deathtrap", "--out", str(out)]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said[0] == "lay the next card: Rat Man (1 of 17)"
    assert said[1] == "took Rat Man (1 of 17)"
    assert "2 cards laid at once: take them away and lay one at a time" in said
    done = next(n for n, line in enumerate(said) if line.startswith("enrolled the"))
    assert said[done].startswith(f"enrolled the 17 cards of deathtrap into {out}")
    # Then the deck taken by the camera examines itself, as one enrolled from photos does.
    assert said[done + 1].startswith("self-check: 17 cards in ")
    names = registry.get("deathtrap").names(registry.get("deathtrap").engine(
        ["Ann", "Bob", "Cy", "Dee"], 0, {}))
    assert [line for line in said if line.startswith("took")] == [
        f"took {names.get(card, card.replace('-', ' ').title())} ({n} of 17)"
        for n, card in enumerate(cards, start=1)]
    library = CardLibrary.load(out)
    assert sorted(library.ids) == sorted([*cards, "green-4"])
    assert (tmp_path / "cards.sheet.png").exists()
    frame = stage.renderer.render(
        [Placement(stage.items[card], spot(n), 20.0) for n, card in enumerate(cards[3:8])],
        np.random.default_rng(9), Conditions(noise=2), stage.camera).image
    assert read(library, frame) == sorted(cards[3:8])


def test_a_terminal_enrolment_that_cannot_finish_writes_nothing(tmp_path, capsys):
    stage = Stage("deathtrap", 4, 1)
    frames_laying(tmp_path / "frames", stage, [{0: "rat-man"}, {1: "orc"}])
    out = tmp_path / "cards.npz"
    assert main(["vision", "enroll", "--frames", str(tmp_path / "frames"), "--game",
                 "deathtrap", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "the frames ended with 2 of 17 cards enrolled; nothing written" in err
    assert "Traceback" not in err and not out.exists()
    for argv, words in [
            (["vision", "enroll", str(tmp_path), "--camera", "0", "--game", "deathtrap"],
             "not both"),
            (["vision", "enroll", "--camera", "usb", "--game", "deathtrap"],
             "--camera usb: give a camera number"),
            (["vision", "enroll", "--frames", str(tmp_path / "frames")], "--game: which game"),
            (["vision", "enroll", "--game", "tricky"], "IMAGES_DIR: give a folder"),
            (["vision", "enroll", str(tmp_path), "--game", "tricky"], "--game: only with")]:
        assert main([*argv, "--out", str(out)]) == 2, argv
        err = capsys.readouterr().err
        assert words in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_a_deck_is_ready_once_every_card_has_a_face_and_none_waits():
    face = np.zeros((448, 320, 3), np.uint8)
    deck = DeckEnrolment(["rat-man", "orc"])
    [first] = deck.laid([face])
    assert first.card == "rat-man"
    extra, second = deck.laid([face, face])  # laid together: each waits for a name
    assert (extra.card, second.card) == (None, None)
    deck.name(second.number, "orc")
    assert not deck.ready  # one still waits
    deck.name(extra.number, "rat-man")  # the name moves: the first crop waits now
    assert first.card is None and not deck.ready
    for number, card, field in [(99, "orc", "crop"), (first.number, "green-4", "card")]:
        with pytest.raises(EnrolError) as refused:
            deck.name(number, card)
        assert refused.value.field == field
    deck.drop(first.number)
    assert deck.ready and [t.card for t in deck.taken] == ["rat-man", "orc"]
