def compile_step():
    return 1


def link_step():
    return 2


def clean_step():
    return 3


PLAN = {"build": [compile_step, link_step], "clean": [clean_step]}


def run():
    for step in PLAN["build"]:
        step()


run()
