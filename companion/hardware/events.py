"""Input events: what a control at the table did, whichever wire it came over.

GPIO pins, the serial hub, the keyboard of ``--sim`` and tests all produce these, so the
daemon never knows (or cares) where a click came from.

>>> InputEvent("dial", "encoder:0", +1)
InputEvent(kind='dial', control='encoder:0', value=1, source='gpio')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: ``dial``: one detent (value +1 clockwise, -1 counter-clockwise);
#: ``press`` / ``release``: a button went down / up (after debouncing);
#: ``hold``: a button has been held past its hold time (value: seconds held, rounded).
Kind = Literal["dial", "press", "release", "hold"]


@dataclass(frozen=True)
class InputEvent:
    """One debounced happening at a control.

    ``control`` names the control: ``encoder:N`` (a trap dial), ``encoder-switch:N`` (its push
    switch), ``seat:N`` (a seat's button), ``menu``.
    """

    kind: Kind
    control: str
    value: int = 0
    source: str = "gpio"
