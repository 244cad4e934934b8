def notify():
    return "sent"


def process(data, callback=None):
    if callback is not None:
        callback()
    return data


process([1], callback=notify)
