class FormatChecker:
    def __init__(self):
        self.checkers = {}

    def checks(self, name):
        def _checks(func):
            self.checkers[name] = func
            return func

        return _checks


_draft_checkers = {"draft3": FormatChecker(), "draft7": FormatChecker()}


def checks_drafts(draft3=None, draft7=None):
    def wrap(func):
        if draft3:
            func = _draft_checkers["draft3"].checks(draft3)(func)
        if draft7:
            func = _draft_checkers["draft7"].checks(draft7)(func)
        return func

    return wrap


@checks_drafts(draft3="date-time", draft7="date-time")
def is_datetime(instance):
    return isinstance(instance, str)


@checks_drafts(draft7="time")
def is_time(instance):
    return is_datetime("1970-01-01T" + instance)


@checks_drafts(draft3="date")
def is_date(instance):
    return True


is_time("00:00")
is_date("2000-01-01")
