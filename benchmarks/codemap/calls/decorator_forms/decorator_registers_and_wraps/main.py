HANDLERS = []


def handler(fn):
    def guarded():
        return fn()

    HANDLERS.append(guarded)
    return fn


@handler
def on_save():
    return "saved"


for h in HANDLERS:
    h()
on_save()
