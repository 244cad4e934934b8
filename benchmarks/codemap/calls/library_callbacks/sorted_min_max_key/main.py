def by_len(s):
    return len(s)


def by_last(s):
    return s[-1]


def first_letter(s):
    return s[0]


def run(words):
    return sorted(words, key=by_len), min(words, key=by_last), max(words, key=first_letter)


run(["ab", "c"])
