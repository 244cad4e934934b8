import pytest


class Signer:
    def sign(self, value):
        return value


class TimestampSigner(Signer):
    def sign(self, value):
        return value


class TestSigner:
    @pytest.fixture
    def factory(self):
        return Signer

    @pytest.fixture
    def signer(self, factory):
        return factory()

    def test_sign(self, signer):
        signer.sign(1)


class TestTimestampSigner(TestSigner):
    @pytest.fixture
    def factory(self):
        return TimestampSigner

    def test_own(self, signer):
        signer.sign(2)  # unresolved
