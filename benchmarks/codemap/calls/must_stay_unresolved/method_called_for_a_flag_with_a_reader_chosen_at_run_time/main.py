import random


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
    events = [reader.read(data)]  # unresolved
    if do_eof:
        events.append(reader.read_eof())  # unresolved
    return events


run_reader(random.choice([LengthReader, EofReader])(), b"", True)  # unresolved
run_reader(LengthReader(), b"abc", False)
