import os

import pytest


class Plain:
    def sign(self, value):
        return value


class Hmac:
    def sign(self, value):
        return value


CHOSEN = [Hmac] if os.environ.get("CODEMAP_CASE_HMAC") else [Plain]


@pytest.mark.parametrize("make", CHOSEN)
def test_sign(make):
    made = make()  # unresolved
    made.sign(1)  # unresolved
