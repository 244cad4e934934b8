def run(step):
    return step()
