import pytest

assert pytest.main(["-q", "-p", "no:cacheprovider", "--assert=plain"]) == 0
