from .deep import api, _hidden

__all__ = ["api"]
