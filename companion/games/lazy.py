"""A typed reference to something imported only when first used: a bundle's parts that need
Pillow, OpenCV, numpy or the daemon (its screens, camera mapper, demo art, simulated table)
stay unimported while the games are listed.

>>> from types import ModuleType
>>> json_module: Lazy[ModuleType] = Lazy("json")
>>> dumps: Lazy[Callable[..., str]] = Lazy("json", "dumps")
>>> dumps()([1, 2]), json_module().__name__, str(dumps)
('[1, 2]', 'json', 'json:dumps')
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

T = TypeVar("T")


@dataclass(frozen=True)
class Lazy(Generic[T]):
    """``module`` (or its ``attribute``), imported when called; typed as what it is
    (``Lazy[Screens]``), so readers and type checkers see what the bundle hands over."""

    module: str
    attribute: str = ""

    def __call__(self) -> T:
        found: Any = importlib.import_module(self.module)
        return cast(T, getattr(found, self.attribute) if self.attribute else found)

    def __str__(self) -> str:
        return f"{self.module}:{self.attribute}" if self.attribute else self.module
