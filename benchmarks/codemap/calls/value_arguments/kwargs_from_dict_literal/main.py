def done():
    return "done"


def run(task, on_done):
    on_done()
    return task


options = {"on_done": done}
run("t", **options)
