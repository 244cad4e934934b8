class ValidationError(Exception):
    pass


def check(x):
    if x < 0:
        raise ValidationError("negative")
    return x


try:
    check(-1)
except ValidationError:
    pass
