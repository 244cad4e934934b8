def default_sink(msg):
    return msg


def file_sink(msg):
    return "file:" + msg


def log(msg, sink=default_sink):
    return sink(msg)


def run():
    log("a", sink=file_sink)
    log("b", file_sink)


run()
