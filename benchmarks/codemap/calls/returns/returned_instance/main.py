class Service:
    def run(self):
        return "ran"


def factory():
    return Service()


def main_task():
    return factory().run()


main_task()
