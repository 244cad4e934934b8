import collections as col
from pathlib import Path as P


def build():
    counts = col.Counter("abca")
    return P(".").name, counts.most_common(1)


build()
