def speedup():
    return 1
