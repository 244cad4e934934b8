class Logger:
    def write(self, msg):
        return msg


def emit(sink, msg):
    return sink(msg)


log = Logger()
emit(log.write, "x")
