"""Discord's limits on what a bot may post, so the fake refuses what Discord would (400 Invalid Form Body).

Only the documented limits the bot can reach are checked: message text, embeds, action rows, buttons, select
menus, custom ids and the number of files.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

CONTENT = 2000
EMBEDS = 10
EMBED_TOTAL = 6000
EMBED_PARTS = {"title": 256, "description": 4096}
FIELDS = 25
FIELD_NAME, FIELD_VALUE = 256, 1024
FOOTER, AUTHOR = 2048, 256
ROWS = 5
BUTTONS_PER_ROW = 5
CUSTOM_ID = 100
BUTTON_LABEL = 80
SELECT_OPTIONS = 25
OPTION_TEXT = 100
PLACEHOLDER = 150
FILES = 10

#: the message flag of "components v2" layouts, whose rules differ (not checked here)
COMPONENTS_V2 = 1 << 15


def problems(body: Mapping[str, Any], files: int = 0) -> list[str]:
    """Every way ``body`` (a message create/edit or callback ``data``) breaks Discord's limits, Discord-style:
    ``"content: Must be 2000 or fewer in length."``; empty when it is fine."""
    out: list[str] = []
    content = body.get("content")
    if isinstance(content, str) and len(content) > CONTENT:
        out.append(f"content: Must be {CONTENT} or fewer in length.")
    embeds = body.get("embeds") or []
    if len(embeds) > EMBEDS:
        out.append(f"embeds: Must be {EMBEDS} or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        for key, limit in EMBED_PARTS.items():
            text = embed.get(key) or ""
            total += len(text)
            if len(text) > limit:
                out.append(f"embeds.{i}.{key}: Must be {limit} or fewer in length.")
        fields = embed.get("fields") or []
        if len(fields) > FIELDS:
            out.append(f"embeds.{i}.fields: Must be {FIELDS} or fewer in length.")
        for j, field in enumerate(fields):
            name, value = str(field.get("name") or ""), str(field.get("value") or "")
            total += len(name) + len(value)
            if len(name) > FIELD_NAME:
                out.append(f"embeds.{i}.fields.{j}.name: Must be {FIELD_NAME} or fewer in length.")
            if len(value) > FIELD_VALUE:
                out.append(f"embeds.{i}.fields.{j}.value: Must be {FIELD_VALUE} or fewer in length.")
        footer = str((embed.get("footer") or {}).get("text") or "")
        author = str((embed.get("author") or {}).get("name") or "")
        total += len(footer) + len(author)
        if len(footer) > FOOTER:
            out.append(f"embeds.{i}.footer.text: Must be {FOOTER} or fewer in length.")
        if len(author) > AUTHOR:
            out.append(f"embeds.{i}.author.name: Must be {AUTHOR} or fewer in length.")
    if total > EMBED_TOTAL:
        out.append(f"embeds: Embed size exceeds maximum size of {EMBED_TOTAL}")
    if not int(body.get("flags") or 0) & COMPONENTS_V2:
        out.extend(_component_problems(body.get("components") or []))
    attachments = body.get("attachments")
    if files > FILES or (isinstance(attachments, list) and len(attachments) > FILES):
        out.append(f"files: Must be {FILES} or fewer in length.")
    return out


def _component_problems(rows: Sequence[Mapping[str, Any]]) -> Iterator[str]:
    if len(rows) > ROWS:
        yield f"components: Must be {ROWS} or fewer in length."
    for i, row in enumerate(rows):
        where = f"components.{i}"
        if row.get("type") != 1:
            yield f"{where}.type: a top-level component must be an action row"
            continue
        inner = list(row.get("components") or [])
        selects = [c for c in inner if c.get("type") in (3, 5, 6, 7, 8)]
        if len(inner) > BUTTONS_PER_ROW or (selects and len(inner) > 1) or not inner:
            yield f"{where}.components: an action row holds 1 to {BUTTONS_PER_ROW} buttons or one select menu"
        for j, comp in enumerate(inner):
            yield from _one_component(f"{where}.components.{j}", comp)


def _one_component(where: str, comp: Mapping[str, Any]) -> Iterator[str]:
    if len(str(comp.get("custom_id") or "")) > CUSTOM_ID:
        yield f"{where}.custom_id: Must be {CUSTOM_ID} or fewer in length."
    if comp.get("type") == 2 and len(str(comp.get("label") or "")) > BUTTON_LABEL:
        yield f"{where}.label: Must be {BUTTON_LABEL} or fewer in length."
    if len(str(comp.get("placeholder") or "")) > PLACEHOLDER:
        yield f"{where}.placeholder: Must be {PLACEHOLDER} or fewer in length."
    if comp.get("type") == 3:
        options = list(comp.get("options") or [])
        if not 1 <= len(options) <= SELECT_OPTIONS:
            yield f"{where}.options: Must be between 1 and {SELECT_OPTIONS} in length."
        for k, option in enumerate(options):
            for key in ("label", "value", "description"):
                if len(str(option.get(key) or "")) > OPTION_TEXT:
                    yield f"{where}.options.{k}.{key}: Must be {OPTION_TEXT} or fewer in length."
