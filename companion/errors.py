"""The errors a user can meet. Each carries a message meant to be read at the table."""

from __future__ import annotations


class CompanionError(Exception):
    """Base of every error that is reported to a user as one clear line (exit 2, no traceback)."""


class RuleViolation(CompanionError):
    """An event the rules do not allow. The game state is unchanged.

    >>> str(RuleViolation("follow-higher", "Orc (2) does not beat Skeleton (3)"))
    'Orc (2) does not beat Skeleton (3) [rule: follow-higher]'
    """

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.message = message
        from companion.i18n import _

        super().__init__(_("{message} [rule: {rule}]").format(message=message, rule=rule))


class EventError(CompanionError):
    """An event that is malformed: missing or unknown field, wrong type, unknown seat."""


class OptionError(CompanionError):
    """An unknown game option or a bad value for one."""


class LogError(CompanionError):
    """A problem with a table log, located at a line (1-based, the header is line 1).

    ``line`` is None for a problem with the file as a whole (missing, unreadable).
    """

    def __init__(self, line: int | None, message: str) -> None:
        self.line = line
        self.message = message
        super().__init__(f"line {line}: {message}" if line is not None else message)


class ConfigError(CompanionError):
    """A broken configuration: the message names the section and key.

    ``key`` is the config's own name of the key at fault (``[hardware.timing] hold_ms``)
    when it is one the config file set, else None.

    >>> ConfigError("[hardware.i2c] bus: must be 0-255", key="[hardware.i2c] bus").key
    '[hardware.i2c] bus'
    """

    def __init__(self, message: str, key: str | None = None) -> None:
        self.key = key
        super().__init__(message)


class PartUnusable(CompanionError):
    """A part that cannot work until someone fixes something here (a missing or broken
    library): reported once with the fix, and not retried."""
