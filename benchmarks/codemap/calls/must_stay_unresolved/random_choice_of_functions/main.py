import random


def heads():
    return "heads"


def tails():
    return "tails"


random.choice([heads, tails])()  # unresolved
