import pytest
from sign import TimestampSigner
from test_signer import TestSigner


class TestTimestampSigner(TestSigner):
    @pytest.fixture
    def factory(self):
        return TimestampSigner
