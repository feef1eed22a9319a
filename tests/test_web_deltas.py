"""The pages' protocol: a page gets its channels whole when it (re)connects, then only what
changed (``companion.web.delta``); what it builds from the changes is the channel as the
daemon built it; a page that does not keep up never holds the daemon back and never has
more than ``BACKLOG`` messages waiting (docs/web.md, "The pages' protocol")."""

from __future__ import annotations

import asyncio
import copy
import json

import aiohttp
from helpers import wait_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from page_state import next_page_state, page_of
from web_table import LiveTable, random_game

from companion.daemon.items import CameraProposal
from companion.web import server as web_server
from companion.web.delta import PageState, Update, apply, changes, full_message, ops_message

LEAVES = st.none() | st.integers(-3, 30) | st.sampled_from(["", "a", "b", "Ann", "é"])
KEYS = st.sampled_from(["api", "feed", "events", "state", "seat", "words", "x"])
VALUES = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=6)
                      | st.dictionaries(KEYS, inner, max_size=5), max_leaves=40)


def as_sent(value):
    """A value as it reaches the page: through JSON."""
    return json.loads(json.dumps(value))


@given(VALUES, VALUES)
def test_the_changes_applied_give_the_new_value(old, new):
    ops = as_sent(changes(old, new))
    assert apply(copy.deepcopy(old), ops) == new
    assert (ops == []) == (old == new)


@given(st.lists(st.dictionaries(KEYS, LEAVES, max_size=3), max_size=40), st.integers(0, 3),
       st.lists(st.dictionaries(KEYS, LEAVES, max_size=3), max_size=3))
def test_a_list_that_slides_or_grows_is_sent_as_its_new_items(items, moved, added):
    old = {"feed": items}
    new = {"feed": items[moved:] + added}
    ops = changes(old, new)
    assert apply(copy.deepcopy(old), as_sent(ops)) == new
    if new != old and moved < len(items):
        assert len(json.dumps(ops)) <= len(json.dumps(added)) + 60  # never the whole list


@given(st.lists(LEAVES, max_size=40), st.lists(LEAVES, max_size=3),
       st.lists(LEAVES, max_size=3), st.lists(LEAVES, min_size=30, max_size=60))
def test_lines_that_come_or_go_in_the_middle_are_sent_alone(head, gone, came, tail):
    old = {"words": [*head, *gone, *tail]}
    new = {"words": [*head, *came, *tail]}
    ops = changes(old, new)
    assert apply(copy.deepcopy(old), as_sent(ops)) == new
    assert len(json.dumps(ops)) <= len(json.dumps([gone, came])) + 80  # never the rest


@given(st.lists(LEAVES, min_size=1, max_size=3), st.lists(LEAVES, min_size=1, max_size=3),
       st.lists(LEAVES, min_size=30, max_size=60), st.lists(LEAVES, max_size=3))
def test_a_new_first_line_and_lines_added_at_the_end_are_sent_alone(was, now, lines, added):
    old = {"words": [*was, *lines]}
    new = {"words": [*now[:len(was)], *was[len(now):], *lines, *added]}
    ops = changes(old, new)
    assert apply(copy.deepcopy(old), as_sent(ops)) == new
    assert len(json.dumps(ops)) <= len(json.dumps([now, added])) + 120


def test_a_page_follows_versions_and_refuses_a_change_it_missed():
    page = PageState()
    page.take(json.loads(full_message("table", 4, {"kind": "table", "events": 1})))
    assert page.take(json.loads(ops_message("table", 5, [["set", ["events"], 2]]))) == {
        "kind": "table", "events": 2}
    try:
        page.take(json.loads(ops_message("table", 7, [["set", ["events"], 3]])))
    except ValueError as error:
        assert "change 7 after 5" in str(error)
    else:
        raise AssertionError("a change after a gap was applied")


class Socketless:
    """A page whose socket never sends: what is queued for it stays queued."""

    def __init__(self) -> None:
        self.closed = False


def test_a_slow_page_waits_in_a_bounded_queue_then_gets_the_whole_channels(tmp_path):
    async def run() -> tuple[int, list[str], int]:
        from companion.web.tokens import TokenBook

        tokens = TokenBook(str(tmp_path / "links.db"))
        server = web_server.WebServer(tokens, lambda item: None)
        client = web_server.Client(Socketless(), "table", None)  # never pumped
        server.clients.add(client)
        longest, value = 0, {"kind": "table", "session": None, "events": 0, "feed": []}
        for number in range(1, 500):
            new = {**value, "events": number, "feed": [*value["feed"][-29:], number]}
            server.deliver([Update("table", number, new,
                                   ops_message("table", number, changes(value, new)))])
            value = new  # deliver returns at once: the daemon's thread never waits
            longest = max(longest, client.queue.qsize())
        waiting = [client.queue.get_nowait() for _ in range(client.queue.qsize())]
        tokens.close()
        return longest, waiting, client.restarts

    longest, waiting, restarts = asyncio.run(run())
    assert longest <= web_server.BACKLOG
    assert restarts >= 1
    page = PageState()
    states = [page.take(json.loads(text)) for text in waiting]
    assert "full" in json.loads(waiting[0])  # it starts again from the whole channel
    assert states[-1]["events"] == 499 and states[-1]["feed"] == list(range(470, 500))


def channel_of(table: LiveTable, name: str) -> tuple[int, dict]:
    return table.web.versions[name], as_sent(table.web.sent[name])


async def caught_up(ws, table: LiveTable, name: str) -> dict:
    """What the page of ``ws`` holds once it has every change of channel ``name``."""
    page = page_of(ws)
    kind = name.split(":")[0]
    while page.versions.get(kind) != table.web.versions[name]:
        await next_page_state(ws, timeout=30)
    return copy.deepcopy(page.channels[kind])


async def follow(table: LiveTable, events: list[dict], undos: set[int]) -> None:
    links = table.links()
    channels = {"table": table.url + "/ws", "seat:0": links[0] + "/ws",
                f"seat:{len(links) - 1}": links[-1] + "/ws"}
    async with aiohttp.ClientSession() as client:
        pages = {name: await client.ws_connect(url.replace("http", "ws", 1))
                 for name, url in channels.items()}
        for name, ws in pages.items():  # the first message: the channel whole
            first = json.loads((await ws.receive(timeout=30)).data)
            assert "full" in first and first["v"] == table.web.versions[name], name
            page_of(ws).take(first)
        stored = table.stored()
        for number, event in enumerate(events):
            table.daemon.submit(CameraProposal(event, 1.0))
            stored += 1
            if number in undos:  # taken back, then given again: the game goes on as played
                table.daemon.submit(CameraProposal({"type": "undo"}, 1.0))
                table.daemon.submit(CameraProposal(event, 1.0))
                stored += 2
        await asyncio.to_thread(wait_for, lambda: table.stored() == stored, "the events")
        await asyncio.to_thread(wait_for, lambda: all(
            table.web.sent[name].get("events") == stored for name in channels), "the redraw")
        for name, ws in pages.items():
            held = await caught_up(ws, table, name)
            version, built = channel_of(table, name)
            assert held == built, name  # the changes applied == the channel built
            async with client.ws_connect(channels[name].replace("http", "ws", 1)) as again:
                whole = json.loads((await again.receive(timeout=30)).data)
            if whole["v"] == version:  # nothing redrawn meanwhile: the same content
                assert whole["full"] == held, name
            await ws.close()


@settings(max_examples=4, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["deathtrap", "rumble", "traps", "tricky"]), st.integers(0, 10_000),
       st.integers(5, 60), st.sets(st.integers(0, 60), max_size=4))
def test_what_a_page_builds_from_the_changes_is_the_channel_built(tmp_path_factory, game,
                                                                   seed, count, undos):
    seats = {"deathtrap": 4, "rumble": 3, "traps": 2, "tricky": 3}[game]
    header, events = random_game(game, seed, seats)
    with LiveTable(tmp_path_factory.mktemp("deltas"), header) as table:
        asyncio.run(follow(table, events[:count], undos))
        assert table.failure is None


def test_an_undo_then_the_same_event_again_keeps_the_pages_in_step(tmp_path):
    header, events = random_game("tricky", 3, 3)
    with LiveTable(tmp_path, header) as table:
        asyncio.run(follow(table, events[:40], {5, 17, 30}))


def test_a_burst_of_events_reaches_the_pages_in_a_few_changes_ending_on_the_latest(
        tmp_path, monkeypatch):
    """Events faster than the pages' rest: the channels are held back, and built once the
    rest is up (a redraw the web part asks of the daemon), whether or not more come."""
    from companion.web import part as web_part

    monkeypatch.setattr(web_part, "MOST_OFTEN", 0.5)
    monkeypatch.setattr(web_part, "REST_PER_BUILD", 1e6)  # always the longest rest
    header, events = random_game("tricky", 5, 3)
    burst = events[:30]

    async def watch(table: LiveTable) -> list[dict]:
        async with aiohttp.ClientSession() as client, \
                client.ws_connect(table.url.replace("http", "ws", 1) + "/ws") as ws:
            page = page_of(ws)
            page.take(json.loads((await ws.receive(timeout=30)).data))
            stored = table.stored() + len(burst)
            for event in burst:
                table.daemon.submit(CameraProposal(event, 1.0))
            states: list[dict] = []
            while not states or states[-1].get("events") != stored:
                state = await next_page_state(ws, timeout=30)
                if isinstance(state, dict) and state.get("kind") == "table":
                    states.append(state)
            return states

    with LiveTable(tmp_path, header) as table:
        states = asyncio.run(watch(table))
        assert table.failure is None
        assert len(states) < len(burst)  # a few changes, not one per event
        assert states[-1] == as_sent(table.web.sent["table"])  # the latest, in full


@given(st.lists(st.integers(0, 9), max_size=80), st.data())
def test_lines_changed_here_and_there_are_sent_as_a_few_splices(lines, data):
    new = list(lines)
    for _ in range(data.draw(st.integers(0, 4))):  # a few lines changed, put in, taken out
        where = data.draw(st.integers(0, len(new)))
        how = data.draw(st.sampled_from(["in", "out", "change"]))
        if how == "in":
            new.insert(where, data.draw(st.integers(10, 19)))
        elif new and where < len(new):
            if how == "out":
                del new[where]
            else:
                new[where] = data.draw(st.integers(10, 19))
    ops = changes({"words": lines}, {"words": new})
    assert apply({"words": list(lines)}, as_sent(ops)) == {"words": new}


def test_a_new_first_line_a_line_gone_and_one_added_are_three_small_changes():
    rounds = [f"round {n}: gold {n % 4}" for n in range(1, 180)]
    old = {"words": ["round 179, play", "Cy is active", "Bob to play", *rounds]}
    new = {"words": ["round 179, deal", "Cy is active", *rounds, "round 180: gold 0"]}
    ops = changes(old, new)
    assert apply(copy.deepcopy(old), as_sent(ops)) == new
    assert len(json.dumps(ops)) < 200, ops
