"""The web pages say the game's state and a seat's own facts in the page's language: over
whole random games of the four games, at every event, in every language, what the table page
and the seat pages display (their channels' ``words``, ``peek`` and feed, built by
the real ``Snapshot`` from a real session) holds no English word the catalogue translates and
no raw id (``dwarven-hunter``), whether the table reads that language itself or only the seat
pages do (the table in English: the game read again in the page's language). What is kept for
``/api/table`` and a seat's ``/api`` (the contract's JSON) is the daemon's own view, unchanged.
"""

import re
from dataclasses import dataclass
from typing import Any

import pytest
from web_table import random_game

from companion.bundles.rumble.rules import data as rumble_data
from companion.bundles.tricky.rules import heroes as tricky_heroes
from companion.i18n import LANGUAGES, translator, using
from companion.i18n.build import read as read_catalogue
from companion.table.session import TableSession
from companion.web.snapshot import Snapshot

SEATS = {"deathtrap": 4, "rumble": 3, "traps": 2, "tricky": 3}
OTHERS = [lang for lang in LANGUAGES if lang != "en"]
#: Ids the games name things by, never shown as they are.
IDS = set(rumble_data.character_names()) | set(tricky_heroes.ALL_HEROES) | {
    "buzz-saw", "falling-weight", "fire-jets", "jaws-of-doom", "monstrous-hand",
    "noxious-acid-pool", "spiked-pit", "red-lotus", "killing-machine", "exploding-pig"}


@dataclass
class StoredGame:
    """What the snapshot reads of the daemon: the session being played and its id."""

    id: int
    header: Any
    session: TableSession

    @property
    def game(self):
        return self.session.game


class Daemon:
    """The daemon as ``Snapshot.build`` reads it, around a real table session."""

    def __init__(self, session):
        self.stored_game = StoredGame(1, session.header, session)
        self.table_notice = ""
        self.menu = None

    def dial_state(self):
        return None

    def seat_error(self, seat):
        return None


def english_words(lang):
    """Every literal run of an English string (the web's and the names) that ``lang``
    translates otherwise and does not use itself anywhere, as a pattern."""
    theirs = " ".join(str(m.string) for m in read_catalogue(lang) if m.id)
    found = set()
    for message in read_catalogue("en"):
        if not message.id or message.context not in (None, "web"):
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for text in ids:
            tr = translator(lang)
            theirs_now = tr.pgettext(message.context, text) if message.context \
                else tr.gettext(text)
            if theirs_now == text:
                continue
            for run in re.split(r"\{[^}]*\}", text):
                run = run.strip(" :;,.()+-")
                if len(run) >= 4 and re.search(r"[A-Za-z]{3}", run) and not re.search(
                        r"(?<!\w)" + re.escape(run) + r"(?!\w)", theirs):
                    found.add(run)
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(found, key=len,
                                                                        reverse=True)))
                      + r")(?![\w-])")


def shown_texts(channel):
    """What a page displays of the game in words (its own strings are in the catalogue)."""
    texts = list(channel.get("words", []))
    texts += [entry["text"] for entry in channel.get("feed", [])]
    texts += list(channel.get("peek", []))
    return texts


def walk(game, lang, seed, table_language):
    """Every channel the snapshot builds over a random game, the seats' pages in ``lang``
    and the table's in ``table_language`` (the session played in it, as the daemon does)."""
    header, events = random_game(game, seed, SEATS[game])
    snapshot = Snapshot(languages={(1, seat): lang for seat in range(SEATS[game])})
    with using(table_language):
        session = TableSession(header)
        daemon = Daemon(session)
        for event in events:
            session.apply(event)
            before = session.result(None)
            yield snapshot.build(daemon, {})
            assert session.result(None) == before  # the pages' words change no view


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("game", sorted(SEATS))
def test_no_state_line_or_fact_of_a_page_is_left_in_english(game, lang):
    english = english_words(lang)
    raw_id = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, IDS)) + r")(?![\w-])")
    counted = 0
    for table_language in ("en", lang):
        for channels in walk(game, lang, 3, table_language):
            pages = [name for name in channels if name.startswith("seat:")]
            if table_language == lang:
                pages.append("table")
            for name in pages:
                channel = channels[name]
                assert channel.get("lang", lang) == lang
                for text in shown_texts(channel):
                    counted += 1
                    left = english.search(text)
                    assert left is None, (game, lang, name, text, left.group(0))
                    assert raw_id.search(text) is None, (game, lang, name, text)
            # The contract's JSON: a seat's ``api`` is the daemon's own view of that seat.
            for name in pages:
                if name != "table":
                    seat = channels[name]["seat"]
                    assert channels[name]["api"]["state"]["seat"] == seat
    assert counted > 100


def test_a_seat_page_in_another_language_reads_the_engines_words_in_it():
    """The Traps table's latest event is written by the engine when it happens (in the
    table's language): a French seat's page at an English table says it in French, and the
    seat's screen as its page draws it comes from the same French reading."""
    *_, channels = walk("traps", "fr", 1, "en")
    seat = channels["seat:0"]
    table = channels["table"]
    last_en = [line for line in table["words"] if line.startswith("last:")]
    last_fr = [line for line in seat["words"] if line.startswith("dernier")]
    assert last_en and last_fr, (table["words"], seat["words"])
    assert seat["shown"]["seat"] == 0 and seat["shown"]["last"] in last_fr[0]
    # The seat's ``api`` (the contract's JSON) is the daemon's own view, as it was.
    assert seat["api"]["state"]["last"] == last_en[0].removeprefix("last: ")


def test_the_pages_list_a_rumble_seats_secret_characters_and_heroes_by_name():
    with using("fr"):
        for channels in walk("rumble", "fr", 2, "fr"):
            secrets = [line for line in channels["seat:0"]["peek"]
                       if line.startswith("Vos personnages secrets : ")]
            if secrets:
                assert "+" in secrets[0]
                assert not raw_id_in(secrets[0])
                return
    raise AssertionError("no secret characters shown")


def raw_id_in(text):
    return any(re.search(r"(?<![\w-])" + re.escape(i) + r"(?![\w-])", text) for i in IDS)
