"""The headless browser the local table's tests click with."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.local.browser import CHROMIUM_SETTING, LOOPBACK, REQUIRE_SETTING, chromium_path


def _unavailable(reason: str) -> None:
    if os.environ.get(REQUIRE_SETTING) == "1":
        pytest.fail(f"{reason}, and {REQUIRE_SETTING}=1 requires the browser tests", pytrace=False)
    pytest.skip(reason)


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    """A headless Chromium driven by Playwright (skipped, saying why, when there is none)."""
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        _unavailable("the playwright package is not installed (pip install -e '.[dev]')")
    path = chromium_path()
    if path is None:
        _unavailable(f"no Chromium found (apt-get install -y chromium, or set {CHROMIUM_SETTING})")
    async with async_playwright() as pw:
        # names under .test lead to this machine, as a DNS-rebound or hostile site's name would (issue 22's tests)
        args = [f"--host-resolver-rules=MAP *.test {LOOPBACK}"]
        chromium = await pw.chromium.launch(executable_path=path, headless=True, args=args)
        try:
            yield chromium
        finally:
            await chromium.close()
