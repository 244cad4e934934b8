from json import dumps as json_dumps


def dumps(obj):
    return "local:" + json_dumps(obj)


def run():
    return dumps([1])


run()
