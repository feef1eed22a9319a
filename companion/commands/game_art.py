"""A game's demo art, by the game's name: for the demo, examples, tests and benchmarks that
name a game. The parts below the commands are handed a game's art items instead
(``companion.vision.art.library_of``) and never look a game up."""

from __future__ import annotations

from companion.errors import CompanionError
from companion.games import registry
from companion.vision.art import ArtItem, library_of
from companion.vision.library import CardLibrary


def game_items(game: str) -> list[ArtItem]:
    """The demo art set of one game, by its name (a ValueError naming the games there are if
    it has none)."""
    try:
        bundle = registry.get(game)
    except CompanionError as error:
        raise ValueError(str(error)) from None
    return bundle.art_items()


def demo_library(*games: str) -> CardLibrary:
    """A library enrolled from the demo art of these games, by name (every game with art if
    none given)."""
    return library_of([item for game in games or registry.art_games()
                       for item in game_items(game)])
