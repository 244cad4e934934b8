import os


def one():
    return 1


def two():
    return 2


STEPS = [one, two]
STEPS[int(os.environ.get("CODEMAP_CASE_STEP", "1"))]()  # unresolved
