def checked(fn):
    def wrapper(self, *args):
        self.validate()
        return fn(self, *args)

    return wrapper


class Account:
    def validate(self):
        return True

    @checked
    def withdraw(self, amount):
        return amount


Account().withdraw(5)
