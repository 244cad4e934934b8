def build():
    return "built"
