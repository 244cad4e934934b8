import os


def plan_a():
    return "a"


def plan_b():
    return "b"


chosen = plan_a if os.environ.get("CODEMAP_CASE_PLAN") == "a" else plan_b
chosen()  # unresolved
