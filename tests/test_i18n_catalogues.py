"""The five catalogues: complete, none fuzzy, in step with the code, plurals right."""

from __future__ import annotations

import string

import pytest

from companion.i18n import LANGUAGES, _, ngettext, translator, use, using
from companion.i18n.build import compiled, po_path, problems, read, template, translations


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_catalogue_is_complete_not_fuzzy_compiled_and_in_step_with_the_code():
    """Re-extracts the marked strings and compares: a string added, changed or left in the
    code without its translation fails here (``python -m companion.i18n.build`` lists it)."""
    assert problems() == []


def test_the_template_holds_what_players_see():
    ids = {message.id for message in template()}
    assert "Not allowed" in ids  # a screen
    assert "Enter by hand" in ids  # a menu
    assert "{square} is disarmed already" in ids  # a refusal of the rules
    assert "Noxious Acid Pool" in ids  # a name from the component data
    assert ("{n} card", "{n} cards") in ids  # a plural


@pytest.mark.parametrize("lang", LANGUAGES)
def test_translations_use_only_the_placeholders_of_their_string(lang):
    """A placeholder the code does not fill would stop the screen with a KeyError."""
    messages = [message for message in read(lang) if message.id]
    assert len(messages) > 100  # the catalogue was read, not an empty one
    for message in messages:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        allowed = set().union(*(fields(text) for text in ids))
        for form in forms:
            assert fields(form) <= allowed, (lang, message.id, form)


@pytest.mark.parametrize(("lang", "one", "two", "zero"), [
    ("en", "1 card", "2 cards", "0 cards"), ("fr", "1 carte", "2 cartes", "0 carte"),
    ("de", "1 Karte", "2 Karten", "0 Karten"), ("it", "1 carta", "2 carte", "0 carte"),
    ("es", "1 carta", "2 cartas", "0 cartas")])
def test_plurals_follow_each_languages_rule(lang, one, two, zero):
    """French counts 0 as singular, the others as plural (the catalogues' Plural-Forms)."""
    tr = translator(lang)
    assert [tr.npgettext("score", "{n} card", "{n} cards", n).format(n=n)
            for n in (1, 2, 0)] == [one, two, zero]


def test_the_publishers_names_are_marked_in_the_catalogue():
    """Where a rule text names a thing, the catalogue says so (and the names are its own)."""
    expected = {"fr": {"Noxious Acid Pool": "Bassin d'acide", "The Total Wimp":
                       "La Mauviette suprême", "Red Lotus": "Lotus Rouge"},
                "de": {"Falling Weight": "3t-Gewicht"}, "it": {"Jaws of Doom":
                                                              "Fauci del Destino"},
                "es": {"Buzz Saw": "Sierra"}}
    for lang, names in expected.items():
        catalog = read(lang)
        for english, theirs in names.items():
            message = catalog.get(english)
            assert message.string == theirs
            assert any(comment.startswith("publisher:") for comment in message.user_comments)
    ours = read("de").get("Chaindog")
    assert ours.user_comments == ["ours"]


def test_the_compiled_catalogues_are_the_po_files():
    """Compared by what they hold once read back, not byte for byte: Babel 2.19 lays out the
    same translations in other bytes than 2.18, which compiled the catalogues in the repository."""
    for lang in LANGUAGES:
        mo = translations(po_path(lang).with_suffix(".mo").read_bytes())
        assert mo == translations(compiled(read(lang)))
        assert mo[None, "Not allowed"]  # a translation, not an empty catalogue


def test_using_is_per_thread_and_use_sets_the_table(monkeypatch):
    import threading

    seen = []
    with using("de"):
        thread = threading.Thread(target=lambda: seen.append(_("Scores")))
        thread.start()
        thread.join()
        assert _("Scores") == "Stand"
    assert seen == ["Scores"]  # another thread draws in the table's language
    try:
        use("it")
        assert ngettext("{n} trick", "{n} tricks", 2).format(n=2) == "2 prese"
    finally:
        use("en")


def test_german_says_seat_and_undo_in_words_of_one_meaning():
    """German "Platz" is a placing ("2. Platz"), so a seat is never called so (it is a
    "Sitzplatz", its player a "Spieler"); and an undo is "Rückgängig", not "Zurück" (back)."""
    for message in read("de"):
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        if any("seat" in text.lower() for text in ids):
            assert not any("Platz" in form or "Plätze" in form for form in forms), message.id
        if any(text.lower().startswith(("undo", "undone")) for text in ids):
            assert not any("zurück" in form.lower() for form in forms), message.id
    german = translator("de")
    assert german.pgettext("event", "undo") == "Rückgängig"
    assert german.gettext("{place} place").format(place="2.") == "2. Platz"  # a placing
