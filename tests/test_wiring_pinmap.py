"""The wiring table (hardware/WIRING.md, and its copy in README.md if pasted there) agrees
with hardware/pinmap.toml: every pin, header pin, screen, driver, channel and address."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.hardware.pins import PinMap, load_pinmap

ROOT = Path(__file__).resolve().parents[1]
START, END = "<!-- wiring:start -->", "<!-- wiring:end -->"
# BCM GPIO -> physical pin of the 40-pin header.
HEADER_PIN = {2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29,
              6: 31, 13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22,
              8: 24, 7: 26, 1: 28, 12: 32, 16: 36, 20: 38, 21: 40}


def wiring_block(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    assert START in text and END in text, f"{path.name} has no {START} ... {END} block"
    return text.split(START, 1)[1].split(END, 1)[0]


def table_rows(block: str, first_header: str) -> list[list[str]]:
    """The body rows of the markdown table whose first header cell is ``first_header``."""
    rows: list[list[str]] = []
    inside = False
    for line in block.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0] == first_header:
            inside = True
        elif inside and line.startswith("|"):
            if not set(cells[0]) <= {"-", ":"}:
                rows.append(cells)
        elif inside:
            break
    return rows


def check_block(block: str, pinmap: PinMap) -> None:
    gpio = {}
    for _part, key, number, header in table_rows(block, "Part"):
        gpio[key.strip("`")] = int(number)
        assert HEADER_PIN[int(number)] == int(header), f"{key}: GPIO {number} is not pin {header}"
    assert gpio == pinmap.gpio_uses()

    screens = {name: (driver, int(channel), int(address, 16))
               for name, driver, channel, address in table_rows(block, "Screen")}
    assert screens == {s.name: (s.driver, s.channel, s.address) for s in pinmap.screens}

    assert f"I2C bus {pinmap.i2c_bus}" in block
    assert f"`0x{pinmap.mux_address:02X}`" in block
    assert f"dtoverlay=i2c-mux,pca9548,addr=0x{pinmap.mux_address:02x}" in block


def documents() -> list[Path]:
    readme = ROOT / "README.md"
    copies = [ROOT / "hardware" / "WIRING.md"]
    if readme.exists() and START in readme.read_text(encoding="utf-8"):
        copies.append(readme)
    return copies


@pytest.mark.parametrize("document", documents(), ids=lambda path: path.name)
def test_the_wiring_table_matches_the_pin_map(document: Path) -> None:
    check_block(wiring_block(document), load_pinmap())


def test_a_drifted_table_is_caught() -> None:
    block = wiring_block(ROOT / "hardware" / "WIRING.md")
    drifted = [
        block.replace("| `encoder.a` | 17 | 11 |", "| `encoder.a` | 23 | 16 |"),
        block.replace("| seat:5 | sh1106 | 5 | 0x3C |", "| seat:5 | ssd1306 | 5 | 0x3C |"),
        block.replace("| `buttons.menu` | 22 | 15 |", "| `buttons.menu` | 22 | 16 |"),
        re.sub(r"\| table \| ssd1306 \| 0 \| 0x3D \|\n", "", block),
    ]
    for changed in drifted:
        assert changed != block
        with pytest.raises(AssertionError):
            check_block(changed, load_pinmap())


def test_the_bom_lists_the_parts_the_pin_map_needs() -> None:
    bom = (ROOT / "hardware" / "BOM.md").read_text(encoding="utf-8")
    pinmap = load_pinmap()
    drivers = {screen.driver for screen in pinmap.screens}
    counts = {driver: sum(s.driver == driver for s in pinmap.screens) for driver in drivers}
    for driver, count in counts.items():
        assert re.search(rf"^\| {count} \| OLED [^|]*{driver.upper()} \|", bom, re.MULTILINE), \
            driver
    assert re.search(rf"^\| {len(pinmap.seat_buttons)} \| Momentary push button", bom,
                     re.MULTILINE)
    assert "TCA9548A" in bom
