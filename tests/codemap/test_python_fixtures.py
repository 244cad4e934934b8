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


ALGORITHMS = {
    "shop/__init__.py": "",
    "shop/algo.py": """
        class Plain:
            def sign(self, value): return value
        class Hmac:
            def sign(self, value): return value
        class Reverse:
            def sign(self, value): return value
    """,
}


def test_each_value_parametrize_lists_reaches_the_tests_parameter(repo: Repo) -> None:
    build(
        repo,
        {
            **ALGORITHMS,
            "tests/test_algo.py": """
                import pytest
                from shop.algo import Plain, Hmac
                @pytest.mark.parametrize(
                    "algorithm", (Plain(), pytest.param(Hmac(), id="hmac"))
                )
                def test_sign(algorithm):
                    algorithm.sign(1)
            """,
        },
    )
    certain = repo.certain("calls")
    assert ("tests.test_algo.test_sign", "shop.algo.Plain.sign") in certain
    assert ("tests.test_algo.test_sign", "shop.algo.Hmac.sign") in certain


def test_parametrize_with_several_names_gives_each_parameter_its_column(repo: Repo) -> None:
    build(
        repo,
        {
            **ALGORITHMS,
            "tests/test_algo.py": """
                import pytest
                from shop.algo import Plain, Hmac, Reverse
                @pytest.mark.parametrize(
                    ("make", "other"), [(Plain, Reverse()), pytest.param(Hmac, Reverse())]
                )
                class TestAlgo:
                    def test_sign(self, make, other):
                        make().sign(1)
            """,
        },
    )
    test = "tests.test_algo.TestAlgo.test_sign"
    assert (test, "shop.algo.Plain.sign") in repo.certain("calls")
    assert (test, "shop.algo.Hmac.sign") in repo.certain("calls")
    assert (test, "shop.algo.Reverse.sign") not in repo.pairs("calls")


def test_parametrize_overrides_a_fixture_of_the_same_name(repo: Repo) -> None:
    build(
        repo,
        {
            **ALGORITHMS,
            "tests/test_algo.py": """
                import pytest
                from shop.algo import Plain, Hmac
                @pytest.fixture
                def algorithm():
                    return Plain()
                @pytest.mark.parametrize("algorithm", [Hmac()])
                def test_sign(algorithm):
                    algorithm.sign(1)
            """,
        },
    )
    assert ("tests.test_algo.test_sign", "shop.algo.Hmac.sign") in repo.certain("calls")
    assert ("tests.test_algo.test_sign", "shop.algo.Plain.sign") not in repo.pairs("calls")


def test_request_param_holds_each_value_of_the_fixtures_params(repo: Repo) -> None:
    build(
        repo,
        {
            **ALGORITHMS,
            "tests/test_algo.py": """
                import pytest
                from shop.algo import Plain, Hmac
                @pytest.fixture(params=[Plain, pytest.param(Hmac, id="hmac")])
                def algorithm(request):
                    return request.param()
                def test_sign(algorithm):
                    algorithm.sign(1)
            """,
        },
    )
    certain = repo.certain("calls")
    assert ("tests.test_algo.test_sign", "shop.algo.Plain.sign") in certain
    assert ("tests.test_algo.test_sign", "shop.algo.Hmac.sign") in certain


def test_rows_the_analysis_cannot_read_draw_no_certain_edge(repo: Repo) -> None:
    build(
        repo,
        {
            **ALGORITHMS,
            "tests/test_algo.py": """
                import json, pytest
                from shop.algo import Plain
                @pytest.fixture(params=json.loads("[]"))
                def algorithm(request):
                    return request.param or Plain()
                def test_sign(algorithm):
                    algorithm.sign(1)
            """,
        },
    )
    assert ("tests.test_algo.test_sign", "shop.algo.Plain.sign") not in repo.certain("calls")


def test_a_subclass_test_sees_a_base_fixture_merged_over_classes_as_a_choice(
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
                    def test_own(self, signer):
                        signer.sign(2)
            """,
        },
    )
    own = "tests.test_timed.TestTimestampSigner.test_own"
    assert (own, "shop.sign.Signer.sign") not in repo.certain("calls")
    assert (own, "shop.sign.TimestampSigner.sign") in repo.pairs("calls")


def test_rows_chosen_at_run_time_are_a_choice(repo: Repo) -> None:
    build(
        repo,
        {
            **ALGORITHMS,
            "tests/test_algo.py": """
                import os, pytest
                from shop.algo import Plain, Hmac
                CHOSEN = [Hmac] if os.environ.get("HMAC") else [Plain]
                @pytest.mark.parametrize("make", CHOSEN)
                def test_sign(make):
                    make().sign(1)
            """,
        },
    )
    for target in ("shop.algo.Plain.sign", "shop.algo.Hmac.sign"):
        assert ("tests.test_algo.test_sign", target) in repo.pairs("calls")
        assert ("tests.test_algo.test_sign", target) not in repo.certain("calls")
