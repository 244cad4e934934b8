from abc import ABC, abstractmethod


class Backend(ABC):
    @abstractmethod
    def start(self): ...

    def restart(self):
        self.start()  # unresolved


def boot(backend: Backend):
    backend.start()  # unresolved


def reboot(backend: Backend):
    backend.restart()


def plugin_backend():
    return type("Plugin", (Backend,), {"start": int})()


boot(plugin_backend())
reboot(plugin_backend())
