"""The chain to the database: models and their tables (SQLModel, SQLAlchemy, ``Table(...)``,
Django, Prisma), the functions that read or write them, and environment variables."""

from __future__ import annotations

import ast
from collections import Counter
from typing import Any

import pytest
from map_helpers import Repo, build

from groundkit.codemap.model import Provenance

MODELS = """
from sqlalchemy import Column, Integer, MetaData, Table
from sqlalchemy.orm import DeclarativeBase
from sqlmodel import Field, SQLModel

metadata = MetaData()
audit = Table("audit_log", metadata, Column("id", Integer))


class UserBase(SQLModel):
    email: str


class User(UserBase, table=True):
    id: int | None = Field(default=None, primary_key=True)


class Item(SQLModel, table=True):
    __tablename__ = "items"
    id: int | None = Field(default=None, primary_key=True)


class Base(DeclarativeBase):
    pass


class Order(Base):
    __tablename__ = "orders"
"""

CRUD = """
import os

from sqlalchemy import insert
from sqlmodel import Session, select

from app import models
from app.models import Item, User, audit


def create_user(session: Session, email: str) -> User:
    user = User.model_validate({"email": email})
    session.add(user)
    session.execute(insert(audit))
    return user


def read_user(session: Session, user_id: int) -> User | None:
    return session.get(User, user_id)


def list_items(session: Session) -> list[Item]:
    return list(session.exec(select(Item)).all())


def orders(session: Session) -> object:
    return session.query(models.Order).all()


def delete_item(session: Session, item: Item) -> None:
    session.delete(item)


def not_a_model(session: Session, other: object) -> None:
    session.add(other)


def database_url() -> str:
    return os.environ["DATABASE_URL"] + os.getenv("SCHEMA", "")
"""

SETTINGS = """
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="app_")
    secret_key: str
    debug: bool = False
"""


def files() -> dict[str, str]:
    return {
        "app/__init__.py": "",
        "app/models.py": MODELS,
        "app/crud.py": CRUD,
        "app/settings.py": SETTINGS,
    }


def test_models_map_to_their_tables_with_how_the_name_was_found(repo: Repo) -> None:
    build(repo, files())
    assert repo.pairs("maps_to") == {
        ("app.models.User", "table:user"),
        ("app.models.Item", "table:items"),
        ("app.models.Order", "table:orders"),
    }
    default = repo.edge("maps_to", "app.models.User", "table:user")
    assert default.provenance == Provenance.TABLE_DEFAULT  # type: ignore[attr-defined]
    declared = repo.edge("maps_to", "app.models.Item", "table:items")
    assert declared.provenance == Provenance.TABLE_DECLARED  # type: ignore[attr-defined]


def test_functions_read_and_write_models_and_tables(repo: Repo) -> None:
    build(repo, files())
    assert repo.pairs("reads") >= {
        ("app.crud.read_user", "app.models.User"),
        ("app.crud.list_items", "app.models.Item"),
        ("app.crud.orders", "app.models.Order"),
    }
    assert repo.pairs("writes") == {
        ("app.crud.create_user", "app.models.User"),
        ("app.crud.create_user", "table:audit_log"),
        ("app.crud.delete_item", "app.models.Item"),
    }
    held = repo.edge("writes", "app.crud.create_user", "app.models.User")
    assert held.provenance == Provenance.ORM_INSTANCE  # type: ignore[attr-defined]
    assert "session.add(user)" in held.quote  # type: ignore[attr-defined]


def test_environment_variables_are_nodes_read_by_name(repo: Repo) -> None:
    build(repo, files())
    env = {(s, t) for s, t in repo.pairs("reads") if t.startswith("env:")}
    assert env == {
        ("app.crud.database_url", "env:DATABASE_URL"),
        ("app.crud.database_url", "env:SCHEMA"),
        ("app.settings.Settings", "env:APP_SECRET_KEY"),
        ("app.settings.Settings", "env:APP_DEBUG"),
    }


def test_a_django_model_without_db_table_has_no_table_guessed(repo: Repo) -> None:
    build(
        repo,
        {
            "shop/__init__.py": "",
            "shop/models.py": """
from django.db import models


class Product(models.Model):
    class Meta:
        db_table = "catalogue_product"


class Basket(models.Model):
    pass


def cheap():
    Basket.objects.create()
    return Product.objects.filter(price__lt=1)
""",
        },
    )
    assert repo.pairs("maps_to") == {("shop.models.Product", "table:catalogue_product")}
    assert repo.pairs("reads") == {("shop.models.cheap", "shop.models.Product")}
    assert repo.pairs("writes") == {("shop.models.cheap", "shop.models.Basket")}


def test_prisma_models_and_client_calls(repo: Repo) -> None:
    build(
        repo,
        {
            "prisma/schema.prisma": """
model User {
  id    Int    @id
  email String
  @@map("users")
}

model BlogPost {
  id Int @id
}
""",
            "src/db.ts": """
import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export default prisma;
""",
            "src/users.ts": """
import prisma from './db';
export async function register(email: string) {
  return prisma.user.create({ data: { email } });
}
export async function posts() {
  return prisma.blogPost.findMany();
}
""",
        },
    )
    assert repo.pairs("maps_to") == {
        ("prisma:User", "table:users"),
        ("prisma:BlogPost", "table:BlogPost"),
    }
    assert repo.pairs("writes") == {("src/users.register", "prisma:User")}
    assert repo.pairs("reads") == {("src/users.posts", "prisma:BlogPost")}


def test_an_edit_beside_a_model_declared_in_another_file_equals_a_fresh_map(repo: Repo) -> None:
    build(repo, files())
    repo.write(
        {
            "app/crud.py": CRUD
            + "\n\ndef more(session: Session) -> object:\n    return select(User)\n"
        }
    )
    repo.build()
    edited = {k: repo.pairs(k) for k in ("reads", "writes", "maps_to")}
    fresh = Repo(repo.root, repo.root.parent / "fresh-index")
    try:
        fresh.build()
        assert {k: fresh.pairs(k) for k in ("reads", "writes", "maps_to")} == edited
    finally:
        fresh.close()
    assert ("app.crud.more", "app.models.User") in edited["reads"]


def test_the_paths_from_a_route_handler_to_a_table_cite_every_hop(repo: Repo) -> None:
    build(
        repo,
        {
            **files(),
            "app/api.py": """
from fastapi import FastAPI
from sqlmodel import Session

from app import crud

app = FastAPI()


@app.get("/users/{user_id}")
def read(user_id: int, session: Session) -> object:
    return crud.read_user(session, user_id)
""",
        },
    )
    found = repo.map.chains("GET /users/{user_id}", "table:user")
    assert [[(e.kind, e.target.qualname) for e in path] for path in found.paths] == [
        [
            ("handles", "app.api.read"),
            ("calls", "app.crud.read_user"),
            ("reads", "app.models.User"),
            ("maps_to", "table:user"),
        ]
    ]
    data = found.to_dict()
    assert data["paths"][0]["hops"] == 4
    assert data["paths"][0]["edges"][2]["evidence"].startswith("app.crud.read_user reads")
    assert not repo.map.chains("GET /users/{user_id}", "table:items").paths


def test_an_object_from_a_query_or_a_local_function_is_known_when_written(repo: Repo) -> None:
    build(
        repo,
        {
            **files(),
            "app/more.py": """
from sqlalchemy import select

from app.models import Item, User


def get_user(db, user_id):
    user = db.query(User).filter(User.id == user_id).first()
    return user


def drop_user(db, user_id):
    user = get_user(db, user_id)
    db.delete(user)


async def drop_item(db, item_id):
    result = await db.execute(select(Item).filter(Item.id == item_id))
    item = result.scalars().first()
    await db.delete(item)


def ids(db):
    rows = db.execute(select(Item.id)).scalars().first()
    db.delete(rows)
""",
        },
    )
    writes = {p for p in repo.pairs("writes") if p[0].startswith("app.more")}
    assert writes == {
        ("app.more.drop_user", "app.models.User"),
        ("app.more.drop_item", "app.models.Item"),
    }


def test_python_decouple_config_is_a_read_of_the_variable_it_names(repo: Repo) -> None:
    build(
        repo,
        {
            "proj/__init__.py": "",
            "proj/settings.py": """
from decouple import Csv, config

DATABASE_URL = config("DATABASE_URL")
ALLOWED_HOSTS = config("ALLOWED_HOSTS", cast=Csv())


def secret(name):
    return config(name)
""",
        },
    )
    assert repo.pairs("reads") == {
        ("proj.settings", "env:DATABASE_URL"),
        ("proj.settings", "env:ALLOWED_HOSTS"),
    }


def test_setting_or_deleting_an_environment_variable_is_a_write_not_a_read(repo: Repo) -> None:
    source = """
import os


def run_server(level):
    os.environ["LOG_LEVEL"] = level
    del os.environ["TMP_TOKEN"]
    return os.environ["HOME"]
"""
    build(repo, {"app/cli.py": source})
    assert repo.pairs("reads") == {("app.cli.run_server", "env:HOME")}
    assert repo.pairs("writes") == {
        ("app.cli.run_server", "env:LOG_LEVEL"),
        ("app.cli.run_server", "env:TMP_TOKEN"),
    }
    edge = repo.edge("writes", "app.cli.run_server", "env:LOG_LEVEL")
    assert edge.provenance == Provenance.ENV_WRITE  # type: ignore[attr-defined]


def test_each_python_file_is_parsed_once_for_its_calls_and_its_data(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the data pass reads the tree the call graph's parse made (issue 34: a second parse of
    # every file was a fifth of a cold map's CPU)
    parsed: Counter[str] = Counter()
    real = ast.parse

    def counting(source: str, *args: Any, **kwargs: Any) -> Any:
        parsed[source] += 1
        return real(source, *args, **kwargs)

    monkeypatch.setattr(ast, "parse", counting)
    build(repo, files())
    texts = {rel: (repo.root / rel).read_text(encoding="utf-8") for rel in files()}
    assert {rel: parsed[text] for rel, text in texts.items() if text} == {
        "app/models.py": 1,
        "app/crud.py": 1,
        "app/settings.py": 1,
    }
    assert ("app.crud.read_user", "app.models.User") in repo.pairs("reads")  # data still read
