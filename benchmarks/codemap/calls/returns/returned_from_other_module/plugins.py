class Plugin:
    def activate(self):
        return True


def get_plugin():
    return Plugin()
