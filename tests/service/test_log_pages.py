"""Issue 24: ``/game log`` pages hold as much as a message may, and the page shown first (the latest) is full."""

from __future__ import annotations

from service.log import LOG_CHARS, LOG_PAGE, pack_pages


def test_pages_are_filled_from_the_latest_line_back():
    lines = [f"line {n:03d} " + "x" * 60 for n in range(100)]
    pages = pack_pages(lines)
    assert [line for page in pages for line in page] == lines  # every line once, in order
    assert all(sum(len(x) + 1 for x in page) <= LOG_CHARS and len(page) <= LOG_PAGE for page in pages)
    assert len(pages[-1]) == max(len(page) for page in pages)  # the latest page is a full one
    assert len(pages) == -(-100 // len(pages[-1]))  # no page more than needed


def test_short_lines_are_limited_by_count_and_no_lines_make_one_empty_page():
    assert [len(p) for p in pack_pages(["a"] * (LOG_PAGE + 1))] == [1, LOG_PAGE]
    assert pack_pages([]) == [[]]
