"""From settled table scenes to table-log events, exactly as docs/table-log.md writes them."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.bundles.deathtrap.camera import deathtrap_events
from companion.bundles.rumble.camera import (
    RoomLayout,
    RumblePositions,
    rumble_events,
    rumble_positions,
)
from companion.bundles.rumble.pieces import CHEST_ID, character_marker
from companion.bundles.tricky.camera import tricky_events
from companion.vision.events import SceneError
from companion.vision.layout import TableLayout
from companion.vision.library import CardLibrary
from companion.vision.scene import Piece, TableScene
from companion.vision.synthetic import Conditions, SceneRenderer, Token
from companion.vision.watch import TableWatcher

ROOMS = [f"{r}{c}" for r in "ABC" for c in "1234"]
CHARACTERS = ["knight", "thief", "twin-thief", "barbarian", "wizard", "priest", "dwarf", "elf",
              "zombie", "gelatinous-cube", "goblin", "skeleton"]


def scene(*pieces: tuple[str, tuple[float, float], int | None]) -> TableScene:
    return TableScene(tuple(Piece(i, c, z) for i, c, z in pieces))


def test_deathtrap_a_set_laid_in_a_seat_s_zone_is_that_seat_s_play():
    before = scene(("orc", (400, 280), None))
    after = scene(("orc", (400, 280), None), ("troll", (80, 250), 1), ("troll", (90, 300), 1),
                  ("chaindog", (100, 270), 1))
    assert deathtrap_events(before, after) == [
        {"type": "play", "seat": 1, "cards": ["chaindog", "troll", "troll"]}]


def test_deathtrap_cards_in_the_centre_need_a_seat_given():
    before = scene(("orc", (400, 280), None))
    after = scene(("orc", (400, 280), None), ("orc", (430, 300), None))
    with pytest.raises(SceneError, match="centre"):
        deathtrap_events(before, after)
    assert deathtrap_events(before, after, centre_seat=2) == [
        {"type": "play", "seat": 2, "cards": ["orc"]}]


def test_deathtrap_the_killing_machine_alone_is_a_play():
    after = scene(("killing-machine", (700, 280), 3))
    assert deathtrap_events(scene(), after) == [
        {"type": "play", "seat": 3, "cards": ["killing-machine"]}]


def test_tricky_each_new_card_is_one_play_and_cards_taken_away_are_not():
    before = scene(("red-3", (400, 500), 0), ("blue-1", (100, 280), 1))
    after = scene(("red-3", (400, 500), 0), ("blue-1", (100, 280), 1), ("red-7", (400, 40), 2))
    assert tricky_events(before, after) == [{"type": "play", "seat": 2, "card": "red-7"}]
    assert tricky_events(after, scene()) == []


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["red-1", "red-2", "green-4"]),
                          st.floats(0, 800), st.floats(0, 560)), max_size=6),
       st.lists(st.tuples(st.sampled_from(["red-1", "blue-5"]), st.integers(0, 3)), max_size=4))
def test_tricky_exactly_the_added_cards_become_plays(old, added):
    layout = TableLayout(seats=4)
    before = scene(*[(i, (x, y), layout.zone_of((x, y))) for i, x, y in old])
    spots = {seat: layout.seat_position(seat) for seat in range(4)}
    extra = [(i, spots[s], s) for i, s in added]
    after = TableScene(before.pieces + tuple(Piece(i, c, s) for i, c, s in extra))
    plays = tricky_events(before, after)
    assert sorted((p["card"], p["seat"]) for p in plays) == sorted((i, s) for i, _, s in extra)


GRID = RoomLayout.grid(ROOMS, columns=4, entry_room="A1")


def test_rumble_a_lone_character_moving_is_a_move_without_the_chest():
    before = RumblePositions({"elf": "A1", "orc": "B2"}, "C4")
    after = RumblePositions({"elf": "A2", "orc": "B2"}, "C4")
    assert rumble_events(before, after, seat=2, entry_room="A1") == [
        {"type": "move", "seat": 2, "character": "elf", "to": "A2", "chest": False}]


def test_rumble_moving_with_the_chest_and_fights_and_escapes():
    before = RumblePositions({"elf": "B1", "orc": "B1"}, "B1")
    moved = RumblePositions({"elf": "A1", "orc": "B1"}, "A1")
    assert rumble_events(before, moved, 0, "A1") == [
        {"type": "move", "seat": 0, "character": "elf", "to": "A1", "chest": True}]
    assert rumble_events(before, RumblePositions({"elf": "B1"}, "B1"), 1, "A1") == [
        {"type": "fight", "seat": 1, "victim": "orc"}]
    assert rumble_events(moved, RumblePositions({"orc": "B1"}, None), 1, "A1") == [
        {"type": "escape", "seat": 1, "character": "elf"}]


def test_rumble_two_changes_at_once_are_not_guessed():
    before = RumblePositions({"elf": "A1", "orc": "B2"}, "C4")
    with pytest.raises(SceneError, match="more than one"):
        rumble_events(before, RumblePositions({"elf": "A2", "orc": "B3"}, "C4"), 0, "A1")
    with pytest.raises(SceneError, match="came back"):
        rumble_events(RumblePositions({}, "C4"), before, 0, "A1")
    assert rumble_events(before, before, 0, "A1") == []


@pytest.fixture(scope="module")
def renderer() -> SceneRenderer:
    return SceneRenderer(TableLayout(seats=4), size=(1280, 720))


def watch_tokens(renderer: SceneRenderer, tokens: list[Token]) -> TableScene:
    frame = renderer.render([], np.random.default_rng(4), Conditions("felt", noise=2),
                            tokens=tokens).image
    watcher = TableWatcher(CardLibrary(), renderer.layout, tokens=True)
    frame_reading = watcher.see(frame)
    assert frame_reading.scene is not None
    return frame_reading.scene


def room_centre(room: str) -> tuple[float, float]:
    return tuple(float(v) for v in GRID.rooms[room].mean(axis=0))


def test_rumble_positions_are_read_from_the_character_markers(renderer):
    tokens = [Token(character_marker(0), room_centre("A1")),
              Token(character_marker(7), room_centre("B3")),
              Token(CHEST_ID, np.add(room_centre("B3"), (25, 25)))]
    positions = rumble_positions(watch_tokens(renderer, tokens), GRID, CHARACTERS)
    assert positions == RumblePositions({"knight": "A1", "elf": "B3"}, "B3")


def test_rumble_a_move_seen_by_the_camera_becomes_a_move_event(renderer):
    start = [Token(character_marker(7), room_centre("B3")),
             Token(character_marker(1), np.add(room_centre("B3"), (-25, -25))),
             Token(CHEST_ID, np.add(room_centre("B3"), (25, 25)))]
    end = [Token(character_marker(7), room_centre("B4")), start[1],
           Token(CHEST_ID, np.add(room_centre("B4"), (25, 25)))]
    before = rumble_positions(watch_tokens(renderer, start), GRID, CHARACTERS)
    after = rumble_positions(watch_tokens(renderer, end), GRID, CHARACTERS)
    assert rumble_events(before, after, seat=3, entry_room="A1") == [
        {"type": "move", "seat": 3, "character": "elf", "to": "B4", "chest": True}]


def test_rumble_rooms_located_by_their_enrolled_tiles(renderer):
    from companion.commands.game_art import demo_library, game_items
    from companion.vision.synthetic import Placement

    tiles = {t.item_id: t for t in game_items("rumble")}
    # Tiles laid with a gap of a few centimetres; touching tiles merge into one blob.
    spaced = RoomLayout.grid(ROOMS, columns=4, entry_room="A1", origin_mm=(80, 60), tile_mm=130)
    centres = {room: tuple(float(v) for v in spaced.rooms[room].mean(axis=0)) for room in ROOMS}
    placed = [Placement(tiles[room], centres[room], 3) for room in ROOMS]
    frame = renderer.render(placed, np.random.default_rng(8), Conditions("slate", noise=2)).image
    watcher = TableWatcher(demo_library("rumble"), renderer.layout)
    scene = watcher.see(frame).scene
    seen = RoomLayout.from_scene(scene, ROOMS, entry_room="A1")
    for room in ROOMS:
        assert seen.room_of(centres[room]) == room
        assert np.abs(seen.rooms[room].mean(axis=0) - centres[room]).max() < 5
    with pytest.raises(SceneError, match="not seen: C4"):
        RoomLayout.from_scene(TableScene(tuple(p for p in scene.pieces if p.item_id != "C4")),
                              ROOMS, "A1")
