from datetime import datetime


class WithFold(datetime):
    @property
    def fold(self):
        return 1


def enfold(dt, fold=1):
    if getattr(dt, "fold", 0) == fold:
        return dt
    args = dt.timetuple()[:6]
    if fold:
        return WithFold(*args)
    return datetime(*args)


enfold(datetime(2020, 1, 19, 3, 32))
plain = enfold(datetime(2020, 1, 19, 3, 32), fold=0)
getattr(plain, "fold", 0)
