def render(self):
    return "page"


class Page:
    show = render


Page().show()
