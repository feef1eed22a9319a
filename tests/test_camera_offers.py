"""The correction list offers only the game's own cards that its rules allow now, the
likeliest first (issue 52): in a Tricky game a reading the camera found most like a
Deathtrap card ("Snake Girl") and a card played already never offers either of them, on the
controls page (in Chromium) nor in the camera's question on the phones. The card list comes
from the game's bundle (``Bundle.cards``) and what is allowed from its own mapper and rules,
so a plug-in game gets the same. The real daemon loop, vision pipeline, rules and store."""

from __future__ import annotations

import cv2
from camera_table import CameraTable
from camera_web import LiveCameraTable
from helpers import wait_for

from companion.daemon.questions import Answer
from companion.games import registry
from companion.table import Header
from companion.vision.art import draw_face
from companion.vision.watch import TableWatcher
from companion.web.camera_view import camera_channel

WAIT_MS = 60_000
#: A card of another game, and what the camera is made to find a card most like.
OTHER_GAME = "snake-girl"


def tricky_cards() -> list[str]:
    """The cards of a Tricky table's deck, as its bundle gives them."""
    tricky = registry.get("tricky")
    return tricky.cards(tricky.engine(["Ann", "Bob", "Cy", "Dee"], 3, {}))


def faces() -> dict[str, object]:
    return {item.item_id: draw_face(item) for item in registry.get("tricky").art_items()}


def also_like(library, card: str, *others: str) -> None:
    """``card``'s face, blurred a little more each time, enrolled as each of ``others``: the
    camera still reads ``card`` (or what it is made to read it as), and finds it most like
    them too."""
    face = faces()[card]
    for n, other in enumerate(others):
        library.enroll(other, cv2.GaussianBlur(face, (0, 0), 6 + n))


def first_trick(table: CameraTable) -> list[dict]:
    """The game played through the camera up to its first trick whole; the trick's plays."""
    plays = []
    while len(plays) < 4:
        play = table.play_until_a_card()
        table.play(play)
        plays.append(play)
    return plays


def test_the_offers_are_the_games_own_cards_the_rules_allow_the_likeliest_first(tmp_path):
    cards = tricky_cards()
    with CameraTable(tmp_path) as table:
        trick = first_trick(table)
        played = {play["card"] for play in trick}
        card_play = table.play_until_a_card()
        card, gone = card_play["card"], trick[0]["card"]
        also_like(table.eyes.watcher.recognizer.library, card, OTHER_GAME, gone)
        table.put_down(card_play["seat"], [card])
        look = table.daemon.display.camera
        assert look is not None
        [seen] = [r for r in look.readings if r.item_id == card]
        # The camera found it most like a Deathtrap card and a card played too.
        assert OTHER_GAME in seen.nearest and gone in seen.nearest
        # Unsure of it: asked, the question's other faces neither of them.
        question = table.daemon.display.asked
        assert question is not None and question.event == card_play
        assert question.alternatives and OTHER_GAME not in question.alternatives
        assert not played & set(question.alternatives)

        def offered() -> tuple[dict, dict]:
            view = camera_channel(table.daemon.display)
            [reading] = [r for r in view["readings"] if r["id"] == card]
            return view, reading

        view, reading = offered()
        allowed = reading["allowed"]
        assert OTHER_GAME not in allowed and not played & set(allowed)
        # Every card of the deck not played this round (it leads the second trick: any
        # card of its hand may be it), the card itself first (the camera's likeliest).
        assert sorted(allowed) == sorted(set(cards) - played) and allowed[0] == card
        assert [entry["id"] for entry in reading["nearest"]] == [
            face for face in seen.nearest if face in allowed]
        assert [entry["id"] for entry in view["deck"]] == cards  # the table's deck only
        # Confirmed and stored, the offers stand: worked out on the game before the play.
        answer = Answer(question.number, "yes")
        table.daemon.handle(answer)
        assert answer.error is None and table.stored_game.session.events[-1]["card"] == card
        assert table.daemon.display.camera is look
        assert offered()[1]["allowed"] == allowed


class OffersTable(LiveCameraTable):
    """A live table whose camera reads ``card`` as ``read_as``, unsure, finding it most like
    a Deathtrap card and a card played already too."""

    def __init__(self, folder, header: Header, events: list[dict], card: str, read_as: str,
                 gone: str) -> None:
        super().__init__(folder, header, events, near={card: read_as})
        self.card, self.gone = card, gone

    def _watcher(self) -> TableWatcher:
        watcher = super()._watcher()
        also_like(watcher.recognizer.library, self.card, OTHER_GAME, self.gone)
        return watcher


def test_the_controls_page_and_the_question_offer_only_what_the_rules_allow(browser,
                                                                             tmp_path):
    header_json, events = registry.get("tricky").random_game(3, 4)
    header = Header.from_json(header_json)
    plays = [n for n, e in enumerate(events) if e["type"] == "play" and "card" in e]
    before, card_play = events[:plays[4]], events[plays[4]]
    played = {events[n]["card"] for n in plays[:4]}
    card, gone = card_play["card"], events[plays[0]]["card"]
    read_as = next(c for c in tricky_cards() if c not in played and c != card)
    with OffersTable(tmp_path, header, before, card, read_as, gone) as table:
        page = browser.new_context(viewport={"width": 1000, "height": 1100},
                                   has_touch=True).new_page()
        page.goto(table.table_link())
        table.show({card_play["seat"]: [card]})
        # Read unsure as another card: asked, the question's choices on the page.
        reading = page.locator(f"#camera-readings .reading[data-id='{read_as}']")
        reading.wait_for(timeout=WAIT_MS)
        page.locator("#asked-choices .choice").first.wait_for(timeout=WAIT_MS)
        asked = page.locator("#asked-choices .choice").evaluate_all(
            "nodes => nodes.map((n) => n.dataset.choice)")
        assert card in asked and OTHER_GAME not in asked and not played & set(asked)
        # Tapped: the likeliest allowed first, then the rest allowed; nothing else.
        reading.tap()
        page.locator("#camera-choose").wait_for(timeout=WAIT_MS)
        nearest = page.locator("#camera-nearest .choice").evaluate_all(
            "nodes => nodes.map((n) => n.dataset.id)")
        deck = page.locator("#camera-deck .choice").evaluate_all(
            "nodes => nodes.map((n) => n.dataset.id)")
        names = page.locator("#camera-choose .choice").all_inner_texts()
        look = table.daemon.display.camera if table.daemon else None
        assert look is not None
        [seen] = [r for r in look.readings if r.item_id == read_as]
        # The camera's own order, less what is not allowed (the reading's own name aside).
        assert nearest == [face for face in seen.nearest
                           if face not in (read_as, OTHER_GAME) and face not in played]
        assert card in nearest and gone in seen.nearest and OTHER_GAME in seen.nearest
        assert OTHER_GAME not in nearest + deck and "Snake Girl" not in names
        assert not played & set(nearest + deck) and read_as not in nearest + deck
        assert len(nearest + deck) == 32 - len(played) - 1  # every other card not played
        page.locator(f"#camera-nearest .choice[data-id='{card}']").tap()
        wait_for(lambda: table.stored_events()[-1].get("card") == card, "the corrected play")
        assert not [e for e in table.stored_events() if e.get("card") == read_as]
