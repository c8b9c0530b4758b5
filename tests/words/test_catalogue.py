"""Issue 15: the catalogues are complete. Every message the bot says has an English and a German text with the same
placeholders, and the files in the repository are what ``python -m words.extract`` makes of the code."""

from __future__ import annotations

from engine.msg import M, P, fields
from words import lang_of, words
from words.extract import all_messages, domain_of, messages_of, missing, planned


def test_catalogue_files_are_up_to_date_with_the_code() -> None:
    stale = [str(p) for p, content in planned().items() if not p.exists() or p.read_bytes() != content]
    assert not stale, f"run python -m words.extract: {stale}"


def test_every_message_has_a_german_and_an_english_text() -> None:
    assert all_messages(), "the extraction finds no message at all"
    assert missing("en") == []
    gaps = missing("de")
    assert gaps == [], f"{len(gaps)} messages without German, e.g. {gaps[:5]}"


def test_german_and_english_use_the_same_placeholders() -> None:
    for lang in ("en", "de"):
        for m in messages_of(lang):
            ids = m.id if isinstance(m.id, tuple) else (m.id,)
            strings = m.string if isinstance(m.string, tuple) else (m.string,)
            want = set().union(*(fields(i) for i in ids))
            for s in (s for s in strings if s):
                assert fields(s) <= want | {"n"}, f"{lang} {m.context}: {s!r} uses fields not in {ids!r}"
                if len(ids) == 1:
                    assert fields(s) == want, f"{lang} {m.context}: {s!r} must use exactly {sorted(want)}"


def test_every_id_names_its_file() -> None:
    for ctx, _ in all_messages():
        assert domain_of(ctx) == ".".join(ctx.split(".")[:2])


def test_a_message_reads_in_both_languages() -> None:
    msg = M("omerta.log.draw", "{name} draws a card.", name="Anna")
    assert words("en")(msg) == "Anna draws a card." == str(msg)
    assert words("de")(msg) == "Anna zieht eine Karte."


def test_a_plural_message_and_an_unknown_one() -> None:
    msg = P("test.none.plural", "{n} card", "{n} cards", 3)
    assert str(msg) == "3 cards"
    assert words("de")(msg) == "3 cards"  # not in a catalogue: its English, never an error


def test_discord_locales_map_to_the_bots_languages() -> None:
    assert lang_of("de") == "de"
    assert lang_of("en-GB") == "en" and lang_of("en-US") == "en"
    assert lang_of("fr") is None and lang_of(None) is None


def test_an_english_plural_message_says_one_thing_in_the_singular() -> None:
    """Issue 24: "1 Capos", "1 Books": a plural message whose singular is its plural, naming its thing in the
    plural."""
    import re

    from words.extract import messages_of

    counted = re.compile(r"\{n\} ([A-Za-z]+s)\b")
    bad = [
        f"{m.context}: {m.id[0]!r}"
        for m in messages_of("en")
        if isinstance(m.id, tuple)
        and m.id[0] == m.id[1]
        and (found := counted.search(m.id[0]))
        and not found.group(1).endswith("ss")
    ]
    assert not bad, "\n".join(bad)
