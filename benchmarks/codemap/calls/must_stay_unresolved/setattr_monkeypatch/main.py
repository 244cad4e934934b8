import os


class Service:
    def handle(self):
        return "original"


def patched(self):
    return "patched"


if os.environ.get("CODEMAP_CASE_UNPATCHED") is None:
    setattr(Service, "han" + "dle", patched)

service = Service()
service.handle()  # unresolved
