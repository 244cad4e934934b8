"""What a library serves or declares for the repository: fastapi-users' router factories give
routes (served by the library), its user-table mixin gives the model's table; and a session's
refresh(m) reads m's row."""

from __future__ import annotations

from map_helpers import Repo, build

from groundkit.codemap.model import NodeKind, Provenance

USERS = {
    "app/models.py": """
from fastapi_users.db import SQLAlchemyBaseUserTableUUID
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass


class User(SQLAlchemyBaseUserTableUUID, Base):
    pass


class Named(SQLAlchemyBaseUserTableUUID, Base):
    __tablename__ = "accounts"


class NotMapped(SQLAlchemyBaseUserTableUUID):
    pass
""",
    "app/users.py": """
import uuid

from fastapi_users import FastAPIUsers

from app.models import User

PATH = "auth"
fastapi_users = FastAPIUsers[User, uuid.UUID](lambda: None, [])
""",
    "app/main.py": """
from fastapi import FastAPI

from app.users import PATH, fastapi_users

app = FastAPI()
app.include_router(fastapi_users.get_auth_router(None), prefix=f"/{PATH}/jwt")
app.include_router(fastapi_users.get_register_router(None, None), prefix="/auth")
app.include_router(fastapi_users.get_users_router(None, None), prefix="/users")
""",
}


def test_fastapi_users_router_factories_serve_their_routes_under_the_mount_prefix(
    repo: Repo,
) -> None:
    build(repo, USERS)
    handles = {
        (e.source.qualname, e.target.qualname, e.target.kind)
        for e in repo.map.edges(["handles"])
        if e.provenance == Provenance.ROUTE_LIBRARY
    }
    served = {source for source, _, _ in handles}
    assert served == {
        "POST /auth/jwt/login",
        "POST /auth/jwt/logout",
        "POST /auth/register",
        "GET /users/me",
        "PATCH /users/me",
        "GET /users/{id}",
        "PATCH /users/{id}",
        "DELETE /users/{id}",
    }
    assert {(target, kind) for _, target, kind in handles} == {("fastapi_users", NodeKind.EXTERNAL)}


def test_a_fastapi_users_table_mixin_names_the_table_of_a_mapped_class(repo: Repo) -> None:
    build(repo, USERS)
    assert repo.pairs("maps_to") == {
        ("app.models.User", "table:user"),
        ("app.models.Named", "table:accounts"),
    }
    edge = repo.edge("maps_to", "app.models.User", "table:user")
    assert edge.provenance == Provenance.TABLE_LIBRARY  # type: ignore[attr-defined]


def test_refresh_of_a_model_instance_reads_the_model(repo: Repo) -> None:
    build(
        repo,
        {
            "app/models.py": """
from sqlmodel import Field, SQLModel


class Item(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
""",
            "app/crud.py": """
from app.models import Item


def create(db, name):
    item = Item(name=name)
    db.add(item)
    db.commit()
    db.refresh(item)
    return item


def reload(db, thing):
    db.refresh(thing)
""",
        },
    )
    assert repo.pairs("reads") == {("app.crud.create", "app.models.Item")}
    assert repo.pairs("writes") == {("app.crud.create", "app.models.Item")}
