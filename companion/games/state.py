"""Copying a game's state: mutable containers are copied, immutable values are shared.

An engine's state is its instance attributes. ``copy_state`` copies what can change in place
(lists, dicts, sets and plain dataclasses, all the way down) and shares what cannot: numbers,
strings, ``None``, tuples, frozensets, read-only mappings (``MappingProxyType``) and frozen
dataclasses. So a record that only grows
with the game (the finished rounds, the attempts made) is kept as a tuple of immutable
values: a copy costs the same after ten events as after ten thousand.

Any other type in a state is refused with a TypeError naming it: a value the copy would
have to share without knowing it is immutable is a bug, not a shortcut.

>>> state = {"round": [1, 2], "done": ((0, 1),)}
>>> twin = copy_state(state)
>>> twin["round"] is state["round"], twin["done"] is state["done"]
(False, True)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from types import MappingProxyType
from typing import Any

ATOMS = (type(None), bool, int, float, str, bytes)
#: Immutable containers: shared by copies, so they must hold only immutable values.
FROZEN = (tuple, frozenset, MappingProxyType)
SHARED = frozenset((*ATOMS, *FROZEN))


# The copiers look up a nested container's copier themselves (``copy_state`` once per new
# type only): a state is copied before every event, so each call saved counts.

def _copy_list(value: list[Any]) -> list[Any]:
    twin = value.copy()
    for index, item in enumerate(value):
        kind = type(item)
        if kind not in SHARED:
            copier = COPIERS.get(kind)
            twin[index] = copier(item) if copier else copy_state(item)
    return twin


def _copy_dict(value: dict[Any, Any]) -> dict[Any, Any]:
    twin = value.copy()
    for key, item in value.items():
        kind = type(item)
        if kind not in SHARED:
            copier = COPIERS.get(kind)
            twin[key] = copier(item) if copier else copy_state(item)
    return twin


def _copy_set(value: set[Any]) -> set[Any]:
    return set(value)  # set members are hashable: immutable values


def _copy_dataclass(value: Any) -> Any:
    twin = object.__new__(type(value))
    twin.__dict__.update(_copy_dict(value.__dict__))
    return twin


def _share(value: Any) -> Any:
    return value


#: How each type is copied; dataclasses are added as they are met.
COPIERS: dict[type, Callable[[Any], Any]] = {list: _copy_list, dict: _copy_dict, set: _copy_set}


def copy_state(value: Any) -> Any:
    """An independent copy of ``value`` that shares only immutable parts (see the module)."""
    kind = type(value)
    if kind in SHARED:
        return value
    copier = COPIERS.get(kind)
    if copier is None:
        if not dataclasses.is_dataclass(kind):
            raise TypeError(f"a game state may hold lists, dicts, sets, dataclasses and "
                            f"immutable values (tuples, frozensets, frozen dataclasses), not "
                            f"{kind.__name__}")
        frozen = kind.__dataclass_params__.frozen  # type: ignore[attr-defined]
        copier = COPIERS[kind] = _share if frozen else _copy_dataclass
    return copier(value)


def mutable_inside_shared(value: Any, shared: bool = False, path: str = "") -> str | None:
    """Where a mutable value sits inside a shared (immutable) one, which a copy would then
    share by mistake; None if nowhere. Tests call it on every engine's state."""
    kind = type(value)
    if kind in ATOMS:
        return None
    if kind in COPIERS or (dataclasses.is_dataclass(value)
                           and not kind.__dataclass_params__.frozen):  # type: ignore[attr-defined]
        if shared:
            return path or "the value"
        items = value.items() if kind is dict else (
            vars(value).items() if dataclasses.is_dataclass(value) else enumerate(value))
    elif kind in FROZEN:
        items = value.items() if kind is MappingProxyType else enumerate(value)
        shared = True
    elif dataclasses.is_dataclass(value):
        items, shared = vars(value).items(), True
    else:
        return path or "the value"
    for key, item in items:
        found = mutable_inside_shared(item, shared, f"{path}[{key!r}]")
        if found:
            return found
    return None
