from typing import Generic, Protocol, TypeVar

T = TypeVar("T")


class TaskStatus(Protocol[T]):
    def started(self, value: T | None = None) -> None: ...


class Status(Generic[T]):
    def started(self, value=None):
        return value


def start(task_status: TaskStatus):
    task_status.started(1)


start(Status())
