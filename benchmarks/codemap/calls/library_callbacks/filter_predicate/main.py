def is_even(n):
    return n % 2 == 0


def evens(numbers):
    return list(filter(is_even, numbers))


evens([1, 2, 3])
