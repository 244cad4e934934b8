def run():
    return "b"
