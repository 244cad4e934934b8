"""Django models through the repository's abstract bases, and Django's default table name where
the app label is read from the source (an AppConfig's label, else its name's last part)."""

from __future__ import annotations

import json
import os

from map_helpers import Repo, build

from groundkit.codemap.model import Provenance

FILES = {
    "common/__init__.py": "",
    "common/models.py": """
from django.db import models


class TimeStamped(models.Model):
    class Meta:
        abstract = True


class Named(TimeStamped):
    class Meta:
        abstract = True


class Helper:
    pass
""",
    "users/__init__.py": "",
    "users/apps.py": """
from django.apps import AppConfig


class UsersConfig(AppConfig):
    name = "users"
""",
    "users/models.py": """
from django.contrib.auth.models import AbstractBaseUser

from common.models import Helper, Named


class User(AbstractBaseUser, Named):
    pass


class Team(Named):
    class Meta:
        app_label = "groups"


class Tag(Helper):
    pass


class Admin(User):
    class Meta:
        proxy = True
""",
    "users/views.py": """
from rest_framework import viewsets

from .models import User


class UserViewSet(viewsets.ModelViewSet):
    queryset = User.objects.all()
""",
    "shop/__init__.py": "",
    "shop/apps.py": """
from django.apps import AppConfig


class ShopConfig(AppConfig):
    name = "shop"
    label = "store"
""",
    "shop/models.py": """
from common.models import TimeStamped


class Product(TimeStamped):
    pass
""",
    "loose/__init__.py": "",
    "loose/models.py": """
from common.models import TimeStamped


class Thing(TimeStamped):
    pass
""",
}


def test_models_through_in_repository_abstract_bases_get_the_default_table(repo: Repo) -> None:
    build(repo, FILES)
    assert repo.pairs("maps_to") == {
        ("users.models.User", "table:users_user"),
        ("users.models.Team", "table:groups_team"),
        ("shop.models.Product", "table:store_product"),
    }
    edge = repo.edge("maps_to", "users.models.User", "table:users_user")
    assert edge.provenance == Provenance.TABLE_DEFAULT  # type: ignore[attr-defined]
    assert repo.pairs("reads") == {("users.views.UserViewSet", "users.models.User")}


def test_what_django_leaves_to_run_time_is_counted_not_guessed(repo: Repo) -> None:
    build(repo, FILES)
    counted = json.loads(repo.map.store.manifest()["data_unresolved"])
    assert counted == {
        "model table not known: Django's default table name needs the app label"
        " (no AppConfig read)": 1,  # loose.models.Thing
        "model table not known: a Django proxy model's table is its concrete parent's": 1,
    }


def test_a_models_file_touched_but_unchanged_keeps_its_tables_when_everything_is_resolved_again(
    repo: Repo,
) -> None:
    # Its text is let go after the run reads it (``Run.texts``) and, with no parse to have
    # foreseen its data facts, read again for them while another file's edit re-solves all.
    build(repo, FILES)
    models = repo.root / "users/models.py"
    os.utime(models, ns=(models.stat().st_atime_ns, models.stat().st_mtime_ns + 10**9))
    shop = repo.root / "shop/models.py"
    shop.write_text(shop.read_text() + "\n\nclass Order(TimeStamped):\n    pass\n")
    report = repo.build()
    assert any("whole program" in solve for solve in report.solves)
    assert repo.pairs("maps_to") == {
        ("users.models.User", "table:users_user"),
        ("users.models.Team", "table:groups_team"),
        ("shop.models.Product", "table:store_product"),
        ("shop.models.Order", "table:store_order"),
    }
