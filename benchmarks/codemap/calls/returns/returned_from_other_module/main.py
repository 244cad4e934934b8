from plugins import get_plugin

plugin = get_plugin()
plugin.activate()
