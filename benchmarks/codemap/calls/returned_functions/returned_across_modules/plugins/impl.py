def execute():
    return "done"
