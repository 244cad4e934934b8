import importlib
import os

suffix = os.environ.get("CODEMAP_CASE_PLUGIN", "a")
plugin = importlib.import_module("plugin_" + suffix)
plugin.run()  # unresolved
