def log(msg):
    return msg


def make_logger(prefix):
    return lambda msg: log(prefix + msg)


make_logger("> ")("hi")
