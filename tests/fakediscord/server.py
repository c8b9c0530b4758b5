"""Moved to :mod:`fakediscord.server` (a product component now); this name stays for tests that import it.

The module object *is* ``fakediscord.server`` (not a copy), so private names, monkeypatches and class
identity are shared with the package.
"""

import sys

import fakediscord.server

sys.modules[__name__] = fakediscord.server
