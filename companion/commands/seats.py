"""``companion seats``: each seat's link (and QR code) for the game the daemon plays.

The links are the ones the daemon's web part made and keeps in the store (``web_links``);
``--reissue SEAT`` replaces a seat's link (a lost phone), and the daemon closes the old
link's page within a second.
"""

from __future__ import annotations

import argparse
import sys

from companion.errors import CompanionError, OptionError
from companion.paths import default_db
from companion.terminal import escaped, json_escaped


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    seats = subparsers.add_parser(
        "seats", help="each seat's link and QR code, to open the seat's page on a phone",
        description="Print each seat's link for the unfinished game the daemon plays (the "
                    "most recent one), with a QR code to scan on a terminal. A link is that "
                    "seat's only credential: give it to that seat's player only. The daemon "
                    "makes the links when it serves the web pages ([web] enabled, or --web).")
    seats.add_argument("--db", metavar="FILE", help=f"the table store (default: {default_db()})")
    seats.add_argument("--json", action="store_true",
                       help='print a JSON array of {"seat": N, "name": NAME, "url": URL}')
    seats.add_argument("--reissue", metavar="SEAT",
                       help="give seat SEAT (counted from 1, as listed) a new link, or 'table' "
                            "the table's controls link; the old one stops working (a lost "
                            "phone)")
    seats.add_argument("--qr", action=argparse.BooleanOptionalAction, default=None,
                       help="draw the QR codes (default: on a terminal)")
    seats.set_defaults(func=run_seats)


def table_link(db_path: str, renew: bool = False) -> str:
    """The table's controls link (its dial, switch and menu button, and the seats' codes)."""
    from companion.web.tokens import TABLE_ROW, open_links, reissue, stored_url, table_token

    db = open_links(db_path, read_only=not renew)
    try:
        token = table_token(db) if db is not None else None
        if token is None:
            raise CompanionError(_NO_LINKS)
        if renew:
            reissue(db, *TABLE_ROW)
            token = table_token(db)
        url = stored_url(db)
    finally:
        if db is not None:
            db.close()
    if url is None:
        raise CompanionError(_NO_LINKS)
    return f"{url}/t/{token}"


def seat_links(db_path: str, new_for: int | None = None) -> list[dict[str, object]]:
    """The links of the unfinished session, after re-issuing ``new_for``'s if asked."""
    from companion.table import TableStore
    from companion.web.tokens import open_links, reissue, stored_tokens, stored_url

    with TableStore(db_path, read_only=True) as store:
        session = store.latest(unfinished=True)
        if session is None:
            raise CompanionError(f"no unfinished game in {db_path}: start one at the table")
        header, _ = store.load(session)
        names = store.seat_names(session, header)
    if new_for is not None:
        if not 0 <= new_for < len(header.seats):
            raise OptionError(f"--reissue {new_for + 1}: seats are 1 to {len(header.seats)}")
        db = open_links(db_path)
        assert db is not None
        try:
            if not stored_tokens(db, session):
                raise CompanionError(_NO_LINKS)
            reissue(db, session, new_for)
        finally:
            db.close()
    db = open_links(db_path, read_only=True)
    tokens, url = ({}, None) if db is None else (stored_tokens(db, session), stored_url(db))
    if db is not None:
        db.close()
    if not tokens or url is None:
        raise CompanionError(_NO_LINKS)
    return [{"seat": seat, "name": name, "url": f"{url}/s/{tokens[seat]}"}
            for seat, name in enumerate(names) if seat in tokens]


_NO_LINKS = ("no seat links for this game yet: the daemon makes them once it serves the web "
             "pages ([web] enabled = true in its config, or companion run --web ADDR:PORT)")


def run_seats(args: argparse.Namespace) -> int:
    db = str(args.db or default_db())
    draw = sys.stdout.isatty() if args.qr is None else args.qr
    if args.reissue == "table":
        show_link("table controls", table_link(db, renew=True), draw)
        return 0
    seat = None if args.reissue is None else reissued_seat(args.reissue)
    links = seat_links(db, seat)
    if seat is not None:
        links = [link for link in links if link["seat"] == seat]
    if args.json:
        print(json_escaped(links))
        return 0
    if seat is None:
        controls = table_link(db)
        show_link("table controls", controls, draw)
        # The table page with the seats' codes on it, for a screen on the Pi itself (the
        # plain table page never shows them): not drawn, it is opened there, not scanned.
        show_link("table page with the join codes", f"{controls}/table", False)
    for link in links:
        show_link(listed(link), str(link["url"]), draw)
    return 0


def listed(link: dict[str, object]) -> str:
    """"seat 1: Ann": seats counted from 1, as on the table, the keys and the pages."""
    seat = link["seat"]
    assert isinstance(seat, int)
    return f"seat {seat + 1}: {link['name']}"


def reissued_seat(given: str) -> int:
    """``--reissue SEAT``: the seat as listed, counted from 1 as people count seats; its
    0-based index (the table log's, ``--json``'s)."""
    if not given.isdigit():
        raise OptionError(f"--reissue {given}: give a seat number (1, 2, ...) or 'table'")
    if int(given) < 1:
        raise OptionError(f"--reissue {given}: seats are counted from 1, as listed")
    return int(given) - 1


def show_link(what: str, url: str, draw: bool) -> None:
    print(f"{escaped(what)}  {url}")
    if draw:
        # The QR encoder only where a code is drawn: segno brings urllib.request, http.client,
        # email and ssl, which no other command needs (issue 43).
        import segno

        segno.make(url, error="m").terminal(compact=True)
        print()
    sys.stdout.flush()

