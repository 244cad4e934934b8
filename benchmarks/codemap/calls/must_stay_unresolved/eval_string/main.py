def secret():
    return 1


def run(code):
    return eval(code)  # unresolved


run("secret()")
