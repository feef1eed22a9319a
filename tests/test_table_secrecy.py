"""The new words on the screens keep secrets: two tables at which one seat enters different
secret characters by hand (picking, taking one back, picking again, then an undo) show the
same table screen and the same other seats' screens at every step; only the entering seat's
own screen differs."""

from hypothesis import given, settings
from hypothesis import strategies as st
from table_driver import type_keys as press

from companion.daemon.daemon import Daemon
from companion.daemon.dialogues import DONE, REMOVE
from companion.daemon.displays import MemoryScreen
from companion.daemon.sources import KeyPresses
from companion.table import Header, TableStore

CHARACTERS = ["knight", "thief", "twin-thief", "barbarian", "wizard", "priest", "dwarf", "elf",
              "zombie", "gelatinous-cube", "goblin", "skeleton"]
SEATS = ("Ann", "Bob", "Cy")


def table(path):
    store = TableStore(path)
    screens = [MemoryScreen("table")] + [MemoryScreen(f"seat:{n}") for n in range(3)]
    daemon = Daemon(store, screens=screens)
    daemon.supervisor.start_all(daemon.clock())
    daemon.use_stored_game(store.new_session(Header("rumble", SEATS, 4, {})))
    daemon.display.refresh()
    return store, daemon, {screen.name: screen for screen in screens}




def choose(daemon, value, presses):
    """Turn the dial to the entry of ``value`` and press, as a person would."""
    menu = daemon.display.menu
    index = next(i for i, (_, v) in enumerate(menu.choices) if v is value or v == value)
    steps = index - menu.cursor
    press(daemon, ("." if steps > 0 else ",") * abs(steps) + " ", presses)


def steps_for(seat, picks):
    first, mistake, second = picks
    return [("open", None), ("choose", "secrets"), ("choose", seat), ("choose", first),
            ("choose", mistake), ("choose", REMOVE), ("choose", second), ("choose", DONE),
            ("undo", None)]


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2), st.lists(st.sampled_from(CHARACTERS), min_size=6, max_size=6,
                                   unique=True))
def test_secrets_entered_and_undone_show_only_on_the_entering_seats_screen(
        tmp_path_factory, seat, characters):
    folder = tmp_path_factory.mktemp("secrecy")
    tables = [table(folder / "a.db"), table(folder / "b.db")]
    plans = [steps_for(seat, characters[:3]), steps_for(seat, characters[3:])]
    presses = [KeyPresses(), KeyPresses()]
    ever: set[str] = set()
    try:
        for step in range(len(plans[0])):
            for (_, daemon, _), plan, keys in zip(tables, plans, presses, strict=True):
                action, value = plan[step]
                if action == "open":
                    press(daemon, " ", keys)
                elif action == "undo":
                    press(daemon, "u", keys)
                else:
                    choose(daemon, value, keys)
            shown = [{name: screen.images[-1].tobytes() for name, screen in screens.items()}
                     for _, _, screens in tables]
            differ = {name for name in shown[0] if shown[0][name] != shown[1][name]}
            assert differ <= {f"seat:{seat}"}, (plans[0][step], differ)
            ever |= differ
        assert ever == {f"seat:{seat}"}  # the picks are drawn, on that seat's screen only
        for _, daemon, _ in tables:
            assert [e["type"] for e in daemon.stored_game.session.events] == ["secrets", "undo"]
            assert daemon.display.table_notice == f"undone: secrets by {SEATS[seat]}"
    finally:
        for store, _, _ in tables:
            store.close()
