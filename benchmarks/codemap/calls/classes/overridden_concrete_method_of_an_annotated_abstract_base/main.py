from abc import ABC, abstractmethod


class Store(ABC):
    @abstractmethod
    def get(self, key): ...

    def describe(self):
        return type(self).__name__


def show(store: Store):
    return store.describe()


class Memory(Store):
    def get(self, key):
        return key

    def describe(self):
        return "memory"


show(Memory())
