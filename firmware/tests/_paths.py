"""Puts the firmware and the shared protocol module on sys.path, under CPython or MicroPython."""

import sys

FIRMWARE = __file__.rsplit("/", 2)[0] if "/" in __file__ else ".."
REPO = FIRMWARE.rsplit("/", 1)[0] if "/" in FIRMWARE else "."

# The firmware folder comes first: companion/hardware has host modules of the same names.
for folder in (REPO + "/companion/hardware", FIRMWARE):
    if folder not in sys.path:
        sys.path.insert(0, folder)
