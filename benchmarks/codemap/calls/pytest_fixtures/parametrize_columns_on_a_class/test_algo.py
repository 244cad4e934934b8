import pytest
from algo import Hmac, Key, Plain


@pytest.mark.parametrize(("make", "key"), [(Plain, Key()), pytest.param(Hmac, Key())])
class TestAlgo:
    def test_sign(self, make, key):
        make().sign(key)
