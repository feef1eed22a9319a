"""The contract of a game (``companion.games.spec``), checked when the game loads: a game
missing a part it must give, or giving a part of the wrong type, or naming a module there is
not, is one line naming the game and the part, and the other games play on (as pluggy
refuses a plug-in whose hook does not match its specification, at registration)."""

from __future__ import annotations

import re
import sys
from importlib.metadata import EntryPoint
from types import ModuleType, SimpleNamespace

import pytest
from built_in import GAMES as BUILT_IN
from tally_game import Tally

from companion.cli import main
from companion.errors import OptionError
from companion.games import registry
from companion.games.lazy import Lazy
from companion.games.spec import Bundle, CameraParts, Screens, conform, fits

#: Toy plug-ins, each breaking the contract once: attribute -> (the object, the line's words).
TOYS = {
    "PARTLESS": (SimpleNamespace(name="toy", engine=Tally),
                 "its part 'screens' is missing (a game must give it)"),
    "ENGINELESS": (SimpleNamespace(name="toy", screens=Lazy("toy_bundle")),
                   "its part 'engine' is missing (a game must give it)"),
    "NOT_AN_ENGINE": (Bundle(name="toy", engine=int, screens=Lazy("toy_bundle")),  # type: ignore[arg-type]
                      "its part 'engine' is the class int, not type[Game]"),
    "SCREENS_BY_NAME": (SimpleNamespace(name="toy", engine=Tally, screens="toy_bundle"),
                        "its part 'screens' is str, not Lazy[Any]"),
    "WRONG_ORDER": (Bundle(name="toy", engine=Tally, screens=Lazy("toy_bundle"),
                           order="first"),  # type: ignore[arg-type]
                    "its part 'order' is str, not int"),
    "MISSPELT": (Bundle(name="toy", engine=Tally, screens=Lazy("toy_bundel")),
                 "its part 'screens' names no module 'toy_bundel'"),
    "MISSPELT_MAPPER": (Bundle(name="toy", engine=Tally, screens=Lazy("toy_bundle"),
                               camera=CameraParts(mapper=Lazy("toy_camera", "mapper"))),
                        "its part 'camera.mapper' names no module 'toy_camera'"),
}


@pytest.fixture
def toys(monkeypatch: pytest.MonkeyPatch) -> None:
    """A module of toy plug-ins, importable as ``toy_plugins``."""
    module = ModuleType("toy_plugins")
    for attribute, (found, _) in TOYS.items():
        setattr(module, attribute, found)
    monkeypatch.setitem(sys.modules, "toy_plugins", module)


@pytest.mark.parametrize("attribute", sorted(TOYS))
def test_a_plugin_breaking_the_contract_fails_at_load_naming_the_part(monkeypatch, capsys, toys,
                                                                     attribute):
    monkeypatch.setitem(registry.installed(), "toy", (
        EntryPoint(name="toy", value=f"toy_plugins:{attribute}", group=registry.GROUP),))
    words = TOYS[attribute][1]
    # Every other game plays on; the broken one is said once, in one line, and left out.
    assert [bundle.name for bundle in registry.games()] == ["traps", "deathtrap", "tricky",
                                                            "rumble"]
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "left out of the games" in err
    assert "toy" not in registry.names()
    with pytest.raises(OptionError) as error:
        registry.get("toy")
    assert str(error.value).startswith("the game 'toy' (") and words in str(error.value)
    assert "\n" not in str(error.value)
    assert main(["rules", "toy"]) == 2
    assert main(["rules", "tricky"]) == 0


@pytest.mark.parametrize("attribute", sorted(TOYS))
def test_registering_a_toy_breaking_the_contract_is_refused(attribute):
    found, words = TOYS[attribute]
    with pytest.raises(OptionError, match="^" + re.escape(f"the game 'toy': {words}")):
        registry.register(found)
    assert "toy" not in registry.names()


def test_a_plugin_object_that_keeps_the_contract_is_a_game():
    """Any object with the parts is taken (checked, as a ``Bundle``), not only a Bundle."""
    registry.register(SimpleNamespace(name="toy", engine=Tally, screens=Lazy("toy_bundle"),
                                      step="add"))
    try:
        bundle = registry.get("toy")
        assert isinstance(bundle, Bundle) and bundle.step == "add" and bundle.order == 100
        assert registry.engine("toy") is Tally and "toy" in registry.names()
    finally:
        registry.unregister("toy")


def test_the_built_in_games_keep_the_contract():
    for name in BUILT_IN:
        bundle = registry.get(name)
        assert conform(Bundle, bundle) is bundle
        assert isinstance(bundle.screen_module(), Screens)


def test_a_screens_module_missing_a_screen_is_named_when_first_drawn():
    bundle = Bundle(name="toy", engine=Tally, screens=Lazy("json"))
    with pytest.raises(OptionError, match=r"^the game 'toy': its screens \(json\): its part "
                                          r"'table' is missing"):
        bundle.screen_module()


def test_the_one_to_many_questions_are_answered_from_the_declared_parts():
    assert registry.demo_games() == ["traps", "deathtrap", "tricky", "rumble"]
    assert registry.card_games() == ("deathtrap", "tricky")
    assert registry.pile_games() == ("deathtrap",)
    assert registry.art_games() == ["traps", "deathtrap", "tricky", "rumble"]
    assert registry.piece_markers()[30] == "30: chest"
    assert [kind.__name__ for kind in registry.vision_settings()] == ["RoomTiles"]
    assert registry.data_words()["traps-catalog.json"] == ("name", "effect")
    assert registry.answers(lambda bundle: bundle.dial) == [("traps",
                                                             registry.get("traps").dial)]


def test_the_type_check_reads_the_types_of_the_contract():
    assert fits(None, int | None) and not fits("1", int | None)
    assert fits({"deck.json": ("name",)}, dict[str, tuple[str, ...]])
    assert not fits({"deck.json": "name"}, dict[str, tuple[str, ...]])
    assert fits(Lazy("json"), Lazy[Screens]) and not fits("json", Lazy[Screens])
    assert fits(print, type(print)) and not fits(3, type(print))
