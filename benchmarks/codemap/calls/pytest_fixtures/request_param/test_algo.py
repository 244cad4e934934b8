import pytest
from algo import Hmac, Plain


@pytest.fixture(params=[Plain, pytest.param(Hmac, id="hmac")])
def algorithm(request):
    return request.param()


def test_sign(algorithm):
    algorithm.sign(1)
