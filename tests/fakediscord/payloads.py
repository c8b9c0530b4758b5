"""Moved to :mod:`fakediscord.payloads` (a product component now); this name stays for tests that import it.

The module object *is* ``fakediscord.payloads`` (not a copy), so private names, monkeypatches and class
identity are shared with the package.
"""

import sys

import fakediscord.payloads

sys.modules[__name__] = fakediscord.payloads
