class Report:
    def build(self):
        return self.header() + self._body()

    def header(self):
        return "h"

    def _body(self):
        return "b"


Report().build()
