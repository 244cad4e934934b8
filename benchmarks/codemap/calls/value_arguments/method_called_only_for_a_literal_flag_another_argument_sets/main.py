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


run_reader(LengthReader(), b"abc", False)
run_reader(EofReader(), b"abc", True)
