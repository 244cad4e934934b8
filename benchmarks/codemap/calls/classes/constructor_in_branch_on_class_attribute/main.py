class View:
    once = False

    @classmethod
    def as_view(cls):
        if cls.once:
            instance = cls()

            def shared_view():
                return instance.render()

            return shared_view

        def fresh_view():
            return cls().render()

        return fresh_view

    def render(self):
        return "page"


class Page(View):
    pass


class Cached(View):
    once = True


Page.as_view()()
Cached.as_view()()
