import os
import sys


def audit():
    return "audit"


def plugin_hooks():
    name = os.environ.get("CODEMAP_CASE_HOOK", "audit")
    return [getattr(sys.modules[__name__], name)]


HOOKS = [audit]
HOOKS.extend(plugin_hooks())


def fire():
    for hook in HOOKS:
        hook()  # unresolved


fire()
