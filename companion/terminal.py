"""Text that is safe to print on a terminal: control characters shown, never obeyed.

Seat names, option values and event fields come from users; a name holding an escape
sequence must not recolour, move or clear anyone's terminal.

>>> escaped("\\x1b[2JAnn")
'\\\\x1b[2JAnn'
>>> json_escaped({"seats": ["Ann\\x9b"]})
'{"seats": ["Ann\\\\u009b"]}'
"""

from __future__ import annotations

import json
import re
from typing import Any

#: DEL and C1 controls, line and paragraph separators, the bidirectional controls that
#: reorder what a terminal shows, and surrogates (not text at all).
_BEYOND_C0 = "\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff"
UNSAFE = re.compile(f"[\x00-\x1f{_BEYOND_C0}]")
#: What json.dumps leaves raw in strings (it escapes C0 controls itself, and its own
#: indentation is C0 whitespace outside strings).
_JSON_UNSAFE = re.compile(f"[{_BEYOND_C0}]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escaped(text: str) -> str:
    """``text`` with every unsafe character written as a Python-style escape."""
    return UNSAFE.sub(_escape, text)


def json_escaped(value: Any, **options: Any) -> str:
    """JSON of ``value``, non-ASCII kept readable, every unsafe character as a \\u escape."""
    text = json.dumps(value, ensure_ascii=False, **options)
    # These can only be inside JSON strings, where \\uXXXX means the same.
    return _JSON_UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)
