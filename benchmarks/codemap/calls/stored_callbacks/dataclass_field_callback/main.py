from dataclasses import dataclass
from typing import Callable


def work():
    return 1


@dataclass
class Task:
    action: Callable[[], int]


task = Task(work)
task.action()
