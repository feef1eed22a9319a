"""``companion voice [TEXT]``: say a line aloud as the daemon says its announcements, to hear
that the voice works (espeak-ng, the table's language, ``[voice] speed``)."""

from __future__ import annotations

import argparse
import sys

from companion.arguments import later
from companion.errors import OptionError
from companion.terminal import escaped


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    voice = subparsers.add_parser(
        "voice", help="say a test line aloud, as the announcements are said",
        description="Say TEXT aloud through espeak-ng as the daemon says its announcements (the "
                    "table's language, [voice] speed), and wait until it is said. Exit 0 when "
                    "it was played, 1 when it cannot be heard (why, and what to fix).")
    voice.add_argument("text", metavar="TEXT", nargs="?",
                       help="what to say (default: an announcement, \"Ann's turn\", in the "
                            "language)")
    later(voice.add_argument("--lang", metavar="LANG",
                             help="the language (%(languages)s; default: [table] language "
                                  "of --config, else en)"), languages=_languages)
    voice.add_argument("--config", metavar="FILE",
                       help="the daemon's config, for its language and [voice] speed")
    voice.set_defaults(func=run_voice)


def _languages() -> tuple[str, ...]:
    from companion.i18n import LANGUAGES

    return LANGUAGES


def settings(args: argparse.Namespace) -> tuple[str, int]:
    """The language and speed: --lang, else the config's, else English at the default."""
    from companion.i18n import LANGUAGES
    from companion.voice.speaker import SPEED

    lang, speed = "en", SPEED
    if args.config:
        from companion.daemon.config import load_config

        config = load_config(args.config)
        lang, speed = config.table.language, config.voice.speed
    if args.lang is not None:
        if args.lang not in LANGUAGES:
            raise OptionError(f"--lang: no voice for {args.lang!r} (languages: "
                              f"{', '.join(LANGUAGES)})")
        lang = args.lang
    return lang, speed


def run_voice(args: argparse.Namespace) -> int:
    from companion.i18n import using
    from companion.voice.audible import say_now
    from companion.voice.speaker import Unheard
    from companion.voice.words import turn

    lang, speed = settings(args)
    if args.text is not None and not args.text.strip():
        raise OptionError("TEXT: nothing to say (give some words, or none for a test line)")
    with using(lang):
        text = args.text if args.text is not None else turn(0, ["Ann"])[0]
    try:
        say_now(text, lang, speed)
    except Unheard as error:
        tell_unheard(str(error), speed)
        return 1
    print(f"said ({lang}): {escaped(text)}")
    return 0


def tell_unheard(error: str, speed: int) -> None:
    """Why the line was not heard, in the doctor's words where it finds the cause, and the
    fix; espeak-ng's own words where it does not."""
    from companion.voice.audible import check_voice

    problems = [check for check in check_voice(speed) if not check.ok]
    if not problems:
        print(f"companion: the voice cannot be heard: {escaped(error)}", file=sys.stderr)
    for check in problems:
        print(f"companion: the voice cannot be heard: {check.what.removeprefix('voice: ')}"
              f"\n  -> {check.fix}", file=sys.stderr)
