def save():
    return "saved"


def run(data, *, on_done):
    on_done()
    return data


run([1], on_done=save)
