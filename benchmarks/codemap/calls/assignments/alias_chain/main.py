def target():
    return 1


first = target
second = first
third = second
third()
