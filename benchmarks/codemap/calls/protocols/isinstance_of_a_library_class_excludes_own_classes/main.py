from datetime import datetime, timezone


class Moment:
    def __init__(self, dt):
        self.dt = dt

    def astimezone(self, tz):
        return self.dt.astimezone(tz)

    def since(self, other):
        if isinstance(other, Moment):
            return self.dt - other.dt
        elif isinstance(other, datetime):
            return self.dt - other.astimezone(timezone.utc)
        raise TypeError(other)


now = Moment(datetime.now(timezone.utc))
now.since(Moment(datetime(2020, 1, 1, tzinfo=timezone.utc)))
now.since(datetime(2020, 1, 1, tzinfo=timezone.utc))
