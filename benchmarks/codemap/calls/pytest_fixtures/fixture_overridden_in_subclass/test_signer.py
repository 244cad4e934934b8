import pytest
from sign import Signer


class TestSigner:
    @pytest.fixture
    def factory(self):
        return Signer

    def test_sign(self, factory):
        factory().sign(1)
