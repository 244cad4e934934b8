def make_counter():
    count = [0]

    def increment():
        count[0] += 1
        return count[0]

    return increment


counter = make_counter()
counter()
counter()
