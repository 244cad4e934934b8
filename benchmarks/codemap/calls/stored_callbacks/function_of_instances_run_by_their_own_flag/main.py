class Impl:
    def __init__(self, function, wrapper):
        self.function = function
        self.wrapper = wrapper


def plain():
    return 1


def around():
    return 2


around.wrapper = True


def register(functions):
    return [Impl(function, getattr(function, "wrapper", False)) for function in functions]


def run_wrapper(impl):
    return impl.function()  # unresolved


def run(impls):
    for impl in impls:
        if impl.wrapper:
            run_wrapper(impl)
        else:
            impl.function()  # unresolved


run(register([plain, around]))
