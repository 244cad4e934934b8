try:
    from fastimpl import speedup
except ImportError:
    from slowimpl import speedup


def run():
    return speedup()  # unresolved


run()
