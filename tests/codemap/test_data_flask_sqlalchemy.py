"""Flask-SQLAlchemy's models on the chain to the database: a class on ``db.Model`` naming no
table maps to the table Flask-SQLAlchemy derives from its name, where ``db`` is proved to be
``SQLAlchemy()`` somewhere in the map; ``db.get_or_404(M, id)`` and ``M.query`` read it."""

from __future__ import annotations

import json

from map_helpers import Repo, build

from groundkit.codemap.model import Provenance

FILES = {
    "app/__init__.py": """
from flask_sqlalchemy import SQLAlchemy

db = SQLAlchemy()
""",
    "app/models.py": """
import sqlalchemy.orm as so
from app import db
from app.mixins import Named


class User(db.Model):
    id: so.Mapped[int] = so.mapped_column(primary_key=True)


class BlogPost(db.Model):
    id = db.Column(db.Integer, primary_key=True)


class APIKey(db.Model):
    id = db.Column(db.Integer, primary_key=True)


class Base(db.Model):
    __abstract__ = True
    id = db.Column(db.Integer, primary_key=True)


class Tagged(Named, db.Model):
    id = db.Column(db.Integer, primary_key=True)


class Role(db.Model):
    __tablename__ = "roles"
    id = db.Column(db.Integer, primary_key=True)
""",
    "app/mixins.py": """
from sqlalchemy.orm import declared_attr


class Named:
    @declared_attr
    def __tablename__(cls):
        return cls.__name__.upper()
""",
    "app/views.py": """
from app import db
from app.models import BlogPost, User


def register(name):
    user = User(name=name)
    db.session.add(user)


def one(id):
    return db.get_or_404(User, id)


def posts():
    return BlogPost.query.filter_by(draft=False).all()
""",
    "other/models.py": """
from peewee import Model
import peewee


class Note(peewee.Model):
    id = peewee.AutoField(primary_key=True)
""",
}


def test_a_flask_sqlalchemy_model_maps_to_the_table_derived_from_its_name(repo: Repo) -> None:
    build(repo, FILES)
    assert repo.pairs("maps_to") == {
        ("app.models.User", "table:user"),
        ("app.models.BlogPost", "table:blog_post"),
        ("app.models.Role", "table:roles"),
    }
    edge = repo.edge("maps_to", "app.models.BlogPost", "table:blog_post")
    assert edge.provenance == Provenance.TABLE_DEFAULT  # type: ignore[attr-defined]
    counted = json.loads(repo.map.store.manifest()["data_unresolved"])
    assert any("adjacent or final capitals" in reason for reason in counted)  # APIKey
    assert any("a base sets __tablename__" in reason for reason in counted)  # Tagged


def test_flask_sqlalchemy_reads_and_writes_reach_the_model(repo: Repo) -> None:
    build(repo, FILES)
    assert repo.pairs("writes") == {("app.views.register", "app.models.User")}
    assert repo.pairs("reads") == {
        ("app.views.one", "app.models.User"),
        ("app.views.posts", "app.models.BlogPost"),
    }
