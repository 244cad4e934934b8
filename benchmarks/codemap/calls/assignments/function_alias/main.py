def original():
    return 1


alias = original


def run():
    return alias()


run()
