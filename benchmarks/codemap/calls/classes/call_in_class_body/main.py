def make_default():
    return 3


class Settings:
    size = make_default()

    def get(self):
        return self.size


Settings().get()
