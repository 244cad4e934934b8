import sys


class Tool:
    def run_fast(self):
        return "fast"

    def run_safe(self):
        return "safe"


mode = "safe" if len(sys.argv) < 100 else "fast"
tool = Tool()
getattr(tool, "run_" + mode)()  # unresolved
