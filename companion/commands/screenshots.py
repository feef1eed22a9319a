"""One table's screens in each language, as PNG files for the docs.

``python -m companion.commands.screenshots docs/images/languages`` draws, with the
screens' own code, a Traps table where the Noxious Acid Pool has just gone off: the table
screen, the victim's own screen (the whole effect) and the manual entry menu; one PNG per
language, each screen at twice its size with a frame, side by side.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageOps

from companion.bundles.traps.rules.engine import Traps
from companion.daemon.dialogues import manual_entry
from companion.daemon.pages import Page, draw
from companion.daemon.ui import TableUI
from companion.i18n import LANGUAGES, using
from companion.screens.screen_set import compose

SCALE = 2
HEADER = {"squares": ["T1", "T2", "T3", "T4"],
          "dials": {"T1": ["start", "x"], "T2": ["start", {"trap": "noxious-acid-pool",
                                                            "disarm": 7, "xp": 5}],
                    "T3": ["start", {"trap": "cage", "disarm": 6, "xp": 10}],
                    "T4": ["start", {"trap": "spiked-pit", "disarm": 8, "xp": 10}]}}


def screens(lang: str) -> list[Image.Image]:
    with using(lang):
        game = Traps(["Ann", "Bob", "Cy"], seed=1, options=HEADER)
        game.apply({"type": "expose", "seat": 0, "square": "T3", "clicks": 1})
        game.apply({"type": "trigger", "seat": 1, "square": "T2", "clicks": 1})
        images = compose(game, TableUI(game.name, 3, squares=HEADER["squares"]))
        menu = next(manual_entry(game))
        entry_menu = draw(Page(menu.title, tuple(menu.lines()[1:])))
    return [images["table"], images["seat:1"], entry_menu]


def sheet(lang: str) -> Image.Image:
    tiles = [ImageOps.expand(image.convert("L").resize(
        (image.width * SCALE, image.height * SCALE), Image.NEAREST), border=4, fill=128)
        for image in screens(lang)]
    out = Image.new("L", (sum(tile.width for tile in tiles) + 8 * (len(tiles) - 1),
                          tiles[0].height), 255)
    left = 0
    for tile in tiles:
        out.paste(tile, (left, 0))
        left += tile.width + 8
    return out


def main(argv: list[str] | None = None) -> int:
    folder = Path((argv or sys.argv[1:] or ["docs/images/languages"])[0])
    folder.mkdir(parents=True, exist_ok=True)
    for lang in LANGUAGES:
        sheet(lang).save(folder / f"{lang}.png", optimize=True)
        print(folder / f"{lang}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
