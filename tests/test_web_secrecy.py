"""Secrecy on the network, as a property: over random games sent from the seats' own links,
each seat's page in a language of its own, at every event, nothing the table page,
``/api/table`` or the public socket sends holds a fact private to a seat (as an id, or as
the name a page in any language shows for it), nothing seat A's page and socket get holds a
fact private to seat B, no page holds another seat's token or join code, and the server's
log holds neither."""

import asyncio
import json
import logging
import re

import aiohttp
from helpers import wait_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from page_state import state_after
from web_table import LiveTable, random_game

from companion.daemon.vocabulary import Vocabulary
from companion.i18n import LANGUAGES, using
from companion.table.session import TableSession
from companion.web.snapshot import _FORMS, event_forms

EVENTS = 30
SEATS = {"deathtrap": (4, 5), "rumble": (3, 4), "traps": (2, 4), "tricky": (3, 4)}


def leaves(value, keys=False, found=None):
    """Every string value in a JSON value, and its keys too if ``keys``."""
    found = set() if found is None else found
    if isinstance(value, str):
        found.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            if keys:
                found.add(key)
            leaves(item, keys, found)
    elif isinstance(value, list):
        for item in value:
            leaves(item, keys, found)
    return found


def vocabulary(game):
    """The game's own words every page may use: its event types and their fields."""
    return set(game.EVENTS) | {name for fields in game.EVENTS.values() for name in fields}


def facts(views, seat, reader, game):
    """The strings seat ``seat`` sees that ``reader`` (a seat, or None: the public) does not."""
    known = leaves(views[None], True) | (leaves(views[reader], True) if reader is not None
                                         else set())
    known |= vocabulary(game)
    return {text for text in leaves(views[seat]) - known if len(text) >= 3}


def holds(text, fact):
    return re.search(r"(?<![\w-])" + re.escape(fact) + r"(?![\w-])", text) is not None


def forms(fact, game):
    """A fact as pages may write it: its id, and the name read for it in each language."""
    found = {fact}
    for lang in LANGUAGES:
        with using(lang):
            found.add(Vocabulary(game).display("", fact))
    return {form for form in found if len(form) >= 3}


class Collector(logging.Handler):
    def __init__(self):
        super().__init__()
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


async def next_state(ws, events, seen):
    """Messages of ``ws`` until the one showing ``events`` events; all of them in ``seen``."""
    while True:
        message = await asyncio.wait_for(ws.receive(), 60)
        assert message.type == aiohttp.WSMsgType.TEXT, message
        data = state_after(ws, message.data)
        # What was sent (a change or a whole channel), with the state the page then shows.
        seen.append((message.data, data.get("events")))
        if data.get("kind") != "links" and data.get("events") == events:
            return


def all_views(session, seats):
    views = {None: session.game.view(None)}
    views.update({seat: session.game.view(seat) for seat in range(seats)})
    return views


def without_forms(data):
    """A page's message less its event forms (``actions``): they list every name the game
    may use (all its cards, heroes, rooms), built from the game, the seats' names, the
    language and the options alone, never from its state (``snapshot.event_forms``), so they
    tell nothing of anyone's secrets (checked in ``test_forms_hold_no_state``)."""
    if not isinstance(data, dict):
        return data
    data = {key: value for key, value in data.items() if key != "actions"}
    if isinstance(data.get("full"), dict):
        data["full"] = without_forms(data["full"])
    if isinstance(data.get("ops"), list):
        data["ops"] = [op for op in data["ops"] if not (
            isinstance(op, list) and len(op) > 1 and op[1][:1] == ["actions"])]
    return data


def check(texts, reader, history, tokens, game):
    """Each text (a message with the event count its page shows once it has it, or an answer
    at the latest state) against the views of that state: no fact of another seat's, no other
    seat's token."""
    for item in texts:
        text, count = item if isinstance(item, tuple) else (item, None)
        data = json.loads(text)
        if count is None:
            count = data.get("events", len(history) - 1) if isinstance(data, dict) else -1
        views = history[count]
        text = json.dumps(without_forms(data), ensure_ascii=False)  # names as read
        for seat in range(len(tokens)):
            if seat == reader:
                continue
            for credential in tokens[seat]:  # its link's token, its join code
                assert credential not in text, (count, reader)
            for fact in facts(views, seat, reader, game):
                for form in forms(fact, game):
                    assert not holds(text, form), (count, seat, reader, fact, form)


async def play(table, header, events, languages):
    links = table.links()
    shown = table.daemon.display
    joins = wait_for(lambda: shown.join_links.urls if shown.join_links.session
                     == table.daemon.stored_game.id else None, "the join codes")
    tokens = [(link.rsplit("/", 1)[1], joins[seat].rsplit("/", 1)[1])
              for seat, link in enumerate(links)]
    session = TableSession(header)
    history = [all_views(session, len(links))]
    async with aiohttp.ClientSession() as client:
        for link, lang in zip(links, languages, strict=True):  # each page in its own
            async with client.post(link + "/language", json={"lang": lang}) as response:
                assert response.status == 200
        public_ws = await client.ws_connect(table.url + "/ws")
        seat_ws = [await client.ws_connect(link + "/ws") for link in links]
        for number, event in enumerate(events, start=1):
            sender = links[event.get("seat", 0)]
            body = {"kind": "event", "event": {k: v for k, v in event.items() if k != "seat"}}
            async with client.post(sender + "/act", json=body) as response:
                assert response.status == 200
            session.apply(event)
            history.append(all_views(session, len(links)))
            public, mine = [], [[] for _ in links]
            await next_state(public_ws, number, public)
            for seat, ws in enumerate(seat_ws):
                await next_state(ws, number, mine[seat])
            async with client.get(table.url + "/api/table") as response:
                public.append(await response.text())
            for seat, link in enumerate(links):
                async with client.get(link + "/api") as response:
                    mine[seat].append(await response.text())
            # The join codes go to a browser on the daemon's machine only (test_web_lan.py).
            public = [item for item in public if '"kind": "links"' not in (
                item[0] if isinstance(item, tuple) else item)]
            check(public, None, history, tokens, session.game)
            for seat in range(len(links)):
                check(mine[seat], seat, history, tokens, session.game)
        async with client.get(table.url + "/") as response:
            check([json.dumps(await response.text())], None, history, tokens, session.game)
        for ws in [public_ws, *seat_ws]:
            await ws.close()
    return tokens


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.sampled_from(sorted(SEATS)), st.integers(0, 10_000), st.data())
def test_no_page_shows_a_secret_it_does_not_own(tmp_path_factory, game, seed, data):
    seats = data.draw(st.integers(*SEATS[game]))
    languages = data.draw(st.lists(st.sampled_from(LANGUAGES), min_size=seats,
                                   max_size=seats))
    header, events = random_game(game, seed, seats)
    log = Collector()
    logger = logging.getLogger("companion")
    logger.addHandler(log)
    level = logger.level
    logger.setLevel(logging.INFO)
    try:
        with LiveTable(tmp_path_factory.mktemp("secrecy"), header) as table:
            tokens = asyncio.run(play(table, header, events[:EVENTS], languages))
    finally:
        logger.removeHandler(log)
        logger.setLevel(level)
    session = TableSession(header)
    for event in events[:EVENTS]:
        session.apply(event)
    everything = "\n".join(log.lines)
    secrets = set()
    for seat in range(seats):
        secrets |= facts({None: session.game.view(None), seat: session.game.view(seat)},
                         seat, None, session.game)
    assert not any(holds(everything, form) for fact in secrets
                   for form in forms(fact, session.game))
    assert not any(credential in everything for pair in tokens for credential in pair)
    # The log does say who acted (the first event's seat, counted from 1).
    assert f"seat {events[0].get('seat', 0) + 1} sent a" in everything


@settings(max_examples=8, deadline=None)
@given(st.sampled_from(sorted(SEATS)), st.integers(0, 10_000), st.data())
def test_forms_hold_no_state(game, seed, data):
    """The event forms a seat's page gets (left out of the checks above) are the same at every
    event of a game as at its start: they carry the game's vocabulary, not its state."""
    seats = data.draw(st.integers(*SEATS[game]))
    header, events = random_game(game, seed, seats)
    session = TableSession(header)
    names = list(session.game.seats)
    with using(data.draw(st.sampled_from(LANGUAGES))):
        first = json.dumps(event_forms(session.game, names), sort_keys=True)
        for event in events[:EVENTS]:
            session.apply(event)
            _FORMS.clear()
            assert json.dumps(event_forms(session.game, names), sort_keys=True) == first
