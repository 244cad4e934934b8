def tick():
    return "tick"


class Clock:
    pass


clock = Clock()
clock.on_tick = clock.on_second = tick
clock.on_tick()
clock.on_second()
