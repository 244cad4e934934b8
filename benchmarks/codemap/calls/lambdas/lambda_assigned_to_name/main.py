def helper(x):
    return x + 1


inc = lambda x: helper(x)  # noqa: E731
inc(1)
