"""pytest fixtures as pytest resolves them: a fixture a collected subclass overrides feeds the
base class's tests, a fixture's parameters hold the fixtures they name, and ``object.__new__``
makes an instance of the class it is given (how jinja2 makes its templates)."""

from __future__ import annotations

from map_helpers import Repo, build

SIGNERS = {
    "shop/__init__.py": "",
    "shop/sign.py": """
        class Signer:
            def sign(self, value): return value
        class TimestampSigner(Signer):
            def sign(self, value): return value
    """,
    "tests/__init__.py": "",
    "tests/test_signer.py": """
        import pytest
        from shop.sign import Signer
        class TestSigner:
            @pytest.fixture
            def signer_factory(self):
                return Signer
            @pytest.fixture(scope="class")
            def signer(self, signer_factory):
                return signer_factory()
            def test_sign(self, signer):
                signer.sign(1)
    """,
}


def test_a_fixture_a_collected_subclass_overrides_feeds_the_base_classs_tests(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            **SIGNERS,
            "tests/test_timed.py": """
                import pytest
                from shop.sign import TimestampSigner
                from tests.test_signer import TestSigner
                class TestTimestampSigner(TestSigner):
                    @pytest.fixture
                    def signer_factory(self):
                        return TimestampSigner
            """,
        },
    )
    certain = repo.certain("calls")
    test = "tests.test_signer.TestSigner.test_sign"
    assert (test, "shop.sign.Signer.sign") in certain
    assert (test, "shop.sign.TimestampSigner.sign") in certain


def test_a_subclass_pytest_does_not_collect_feeds_no_fixture(repo: Repo) -> None:
    build(
        repo,
        {
            **SIGNERS,
            "tests/helpers.py": """
                import pytest
                from shop.sign import TimestampSigner
                from tests.test_signer import TestSigner
                class TimedBase(TestSigner):
                    @pytest.fixture
                    def signer_factory(self):
                        return TimestampSigner
            """,
        },
    )
    pairs = repo.pairs("calls")
    assert ("tests.test_signer.TestSigner.test_sign", "shop.sign.TimestampSigner.sign") not in pairs


def test_a_fixtures_parameter_holds_the_fixture_it_names_for_certain(repo: Repo) -> None:
    build(repo, SIGNERS)
    assert ("tests.test_signer.TestSigner.signer", "shop.sign.Signer") in repo.certain("calls")


def test_a_fixtures_parameter_no_fixture_of_the_repository_fills_holds_an_unknown(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            **SIGNERS,
            "tests/test_plugin.py": """
                import pytest
                from shop.sign import Signer
                @pytest.fixture
                def signer(plugin_signer):
                    return plugin_signer or Signer()
                def test_sign(signer):
                    signer.sign(1)
            """,
        },
    )
    edge = ("tests.test_plugin.test_sign", "shop.sign.Signer.sign")
    assert edge in repo.pairs("calls")
    assert edge not in repo.certain("calls")


def test_object_new_of_cls_makes_an_instance_of_that_class(repo: Repo) -> None:
    build(
        repo,
        {
            "tpl.py": """
                class Template:
                    @classmethod
                    def from_code(cls, code):
                        made = object.__new__(cls)
                        made.code = code
                        return made
                    def render(self):
                        return self.code
                def run():
                    return Template.from_code("a").render()
            """
        },
    )
    assert ("tpl.run", "tpl.Template.render") in repo.certain("calls")


def test_object_new_of_a_run_time_choice_of_class_is_a_choice_of_instance(repo: Repo) -> None:
    build(
        repo,
        {
            "tpl.py": """
                import os
                class Quiet:
                    def emit(self): return ""
                class Loud:
                    def emit(self): return "!"
                def run():
                    cls = Loud if os.environ.get("LOUD") else Quiet
                    return object.__new__(cls).emit()
            """
        },
    )
    for target in ("tpl.Quiet.emit", "tpl.Loud.emit"):
        assert ("tpl.run", target) in repo.pairs("calls")
        assert ("tpl.run", target) not in repo.certain("calls")
