def tool():
    return 2
