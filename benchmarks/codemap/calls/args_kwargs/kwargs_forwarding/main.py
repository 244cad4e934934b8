def target(a, b=0):
    return a + b


def forward(fn, *args, **kwargs):
    return fn(*args, **kwargs)


forward(target, 1, b=2)
