from functools import cached_property


class Report:
    @cached_property
    def total(self):
        return self.compute()

    def compute(self):
        return 42


report = Report()
report.total
report.total
