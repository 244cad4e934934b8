import importlib

suffix = "a"
plugin = importlib.import_module("plugin_" + suffix)
plugin.run()  # unresolved
