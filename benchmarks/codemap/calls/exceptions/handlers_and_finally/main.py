def risky():
    raise ValueError("boom")


def recover():
    return "recovered"


def cleanup():
    return "clean"


def run():
    try:
        risky()
    except ValueError:
        recover()
    finally:
        cleanup()


run()
