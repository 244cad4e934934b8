class LengthReader:
    def read(self, data):
        return data

    def read_eof(self):
        return None


class EofReader:
    def read(self, data):
        return data

    def read_eof(self):
        return "end"


def run_reader(reader, data, do_eof):
    events = [reader.read(data)]
    if do_eof:
        events.append(reader.read_eof())
    return events


def check(make, data, do_eof=False):
    return run_reader(make(), data, do_eof)


check(LengthReader, b"", do_eof=True)
check(EofReader, b"abc", do_eof=True)
