"""Wrong links are answered ever more slowly and a few at a time, however many come: the delay
never overflows, the failures waiting are counted and bounded, one log line per burst and no
traceback (companion/web/tokens.py, ``Throttle``). One address opens at most as many
connections at once as the server lets it (``admission.py``; more are closed at the door:
tests/test_web_flood.py)."""

from __future__ import annotations

import asyncio
import logging
import secrets

import aiohttp
from web_table import LiveTable, random_game

from companion.web.admission import limits
from companion.web.tokens import Throttle, address_key

FLOOD = 1200


class Watched(Throttle):
    """The real throttle, with the most failures ever seen waiting at once."""

    def __init__(self, **settings):
        super().__init__(**settings)
        self.most_waiting = 0

    def busy(self, address):
        self.most_waiting = max(self.most_waiting, self.total)
        return super().busy(address)


def test_1200_wrong_links_side_by_side_then_one_more_every_answer_403_no_traceback(tmp_path,
                                                                                   caplog):
    caplog.set_level(logging.INFO)
    header, _ = random_game("tricky", 1, 3)
    throttle = Watched()  # the daemon's own settings
    with LiveTable(tmp_path, header, throttle=throttle) as table:
        table_token = table.web.server.tokens.table
        wrong = [f"/s/{secrets.token_urlsafe(24)}/api", f"/J/{'A' * 26}",
                 f"/t/{secrets.token_urlsafe(24)}", f"/s/{table_token}/ws",
                 f"/t/{table_token[:-1]}/input"]

        async def flood():
            # Loopback only; each request on its own connection, as many at once as one
            # address may open.
            connector = aiohttp.TCPConnector(limit=limits()[0], force_close=True)
            timeout = aiohttp.ClientTimeout(total=600)
            async with aiohttp.ClientSession(connector=connector, timeout=timeout) as client:
                async def one(n):
                    path = wrong[n % len(wrong)]
                    method = client.post if path.endswith("/input") else client.get
                    async with method(table.url + path, json={"kind": "press",
                                                              "control": "menu"}) as answer:
                        return answer.status, await answer.read()

                answers = await asyncio.gather(*(one(n) for n in range(FLOOD)))
                return answers, await one(FLOOD)

        answers, last = asyncio.run(flood())
        assert len(answers) == FLOOD
        assert {status for status, _ in answers} == {403} and last[0] == 403
        assert not any(b"Ann" in body or b"Traceback" in body for _, body in answers)
        assert throttle.most_waiting <= throttle.per_address  # a few at a time, the rest at once
        assert table.stored() == 0
    assert not [record for record in caplog.records if record.exc_info], caplog.text
    assert "Traceback" not in caplog.text and "OverflowError" not in caplog.text
    bursts = [r for r in caplog.records if "wrong links from" in r.getMessage()]
    assert len(bursts) == 1, [r.getMessage() for r in bursts]  # one line for the burst


def test_the_delay_is_capped_however_many_failures():
    now = [0.0]
    throttle = Throttle(free=5, base=0.05, cap=3.0, clock=lambda: now[0])
    delays = [throttle.delay("10.0.0.9") for _ in range(5000)]
    assert delays[:5] == [0.0] * 5 and max(delays) == 3.0 and delays[-1] == 3.0
    now[0] += 61  # a quiet minute: forgiven
    assert throttle.delay("10.0.0.9") == 0.0


def test_failures_waiting_are_counted_and_bounded_per_address_and_in_all():
    """Held waits (no clock): while ``per_address`` failures of an address wait, its next
    request is refused before its link is looked at; another address is not held up until
    ``limit`` wait in all, and then only one that keeps failing."""

    async def run():
        release = asyncio.Event()
        throttle = Throttle(free=1, per_address=3, limit=5, clock=lambda: 0.0)

        async def held(_seconds):
            await release.wait()

        throttle.sleep = held
        assert not throttle.busy("10.0.0.9")
        await throttle.refuse("10.0.0.9")  # free: answered at once
        waiting = [asyncio.ensure_future(throttle.refuse("10.0.0.9")) for _ in range(3)]
        await asyncio.sleep(0)
        assert throttle.waiting == {"10.0.0.9": 3} and throttle.busy("10.0.0.9")
        await throttle.refuse("10.0.0.9", checked=False)  # refused at once, not held
        assert throttle.total == 3 and not throttle.busy("10.0.0.8")
        await throttle.refuse("10.0.0.8")  # its free one
        waiting += [asyncio.ensure_future(throttle.refuse("10.0.0.8")) for _ in range(2)]
        await asyncio.sleep(0)
        assert throttle.total == 5
        assert throttle.busy("10.0.0.8")  # all are waiting and it keeps failing
        assert not throttle.busy("10.0.0.7")  # a clean address is still looked at
        release.set()
        await asyncio.gather(*waiting)
        assert throttle.total == 0 and throttle.waiting == {}
        assert not throttle.busy("10.0.0.9") and not throttle.busy("10.0.0.8")

    asyncio.run(run())


def test_an_ipv6_address_counts_by_its_64():
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:bbbb::2")
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:10.0.0.9") == "10.0.0.9"
    assert address_key("::1") == "::1" and address_key("10.0.0.9") == "10.0.0.9"
