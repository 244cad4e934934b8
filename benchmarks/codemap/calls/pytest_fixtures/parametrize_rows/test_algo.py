import pytest
from algo import Hmac, Plain


@pytest.fixture
def algorithm():
    return Plain


@pytest.mark.parametrize("algorithm", [Hmac, pytest.param(Plain, id="plain")])
def test_sign(algorithm):
    algorithm().sign(1)
