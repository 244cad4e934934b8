def a():
    def b():
        def c():
            return "c"

        return c()

    return b()


a()
