"""Environment variables read in TypeScript/JavaScript, and FastAPI's dependency injection as a
call: the code a request runs before its handler is on the chain to the database."""

from __future__ import annotations

from map_helpers import Repo, build

from groundkit.codemap.model import Provenance


def test_process_env_and_import_meta_env_are_env_reads_of_the_function(repo: Repo) -> None:
    build(
        repo,
        {
            "src/config.ts": """
export function apiBase(): string {
  return process.env.API_BASE ?? import.meta.env.VITE_API_URL;
}
export function secret(): string {
  const { JWT_SECRET, PORT: port } = process.env;
  return process.env["SESSION_KEY"] + JWT_SECRET + port;
}
export function computed(name: string): string | undefined {
  return process.env[name];
}
export const mode = process.env.NODE_ENV.trim();
""",
            "src/shadow.ts": """
export function local(process: { env: { X: string } }): string {
  return process.env.X;
}
""",
        },
    )
    env = {(s, t) for s, t in repo.pairs("reads") if t.startswith("env:")}
    assert env == {
        ("src/config.apiBase", "env:API_BASE"),
        ("src/config.apiBase", "env:VITE_API_URL"),
        ("src/config.secret", "env:JWT_SECRET"),
        ("src/config.secret", "env:PORT"),
        ("src/config.secret", "env:SESSION_KEY"),
        ("src/config", "env:NODE_ENV"),
    }
    edge = repo.edge("reads", "src/config.apiBase", "env:VITE_API_URL")
    assert edge.provenance == Provenance.ENV_READ  # type: ignore[attr-defined]
    assert "import.meta.env.VITE_API_URL" in edge.quote  # type: ignore[attr-defined]


def test_setting_or_deleting_process_env_is_a_write_not_a_read(repo: Repo) -> None:
    build(
        repo,
        {
            "src/setup.ts": """
export function setup(level: string): string | undefined {
  process.env.LOG_LEVEL = level;
  process.env["MODE"] = "test";
  delete process.env.TMP_TOKEN;
  return process.env.HOME;
}
""",
        },
    )
    assert repo.pairs("reads") == {("src/setup.setup", "env:HOME")}
    assert repo.pairs("writes") == {
        ("src/setup.setup", "env:LOG_LEVEL"),
        ("src/setup.setup", "env:MODE"),
        ("src/setup.setup", "env:TMP_TOKEN"),
    }
    edge = repo.edge("writes", "src/setup.setup", "env:MODE")
    assert edge.provenance == Provenance.ENV_WRITE  # type: ignore[attr-defined]


DEPS = """
from typing import Annotated

from fastapi import APIRouter, Depends, Security
from sqlmodel import Session, select

from app.models import User

router = APIRouter()


def get_db():
    yield Session()


def get_current_user(db: Session = Depends(get_db)) -> User:
    return db.exec(select(User)).first()


CurrentUser = Annotated[User, Depends(get_current_user)]


@router.get("/me")
def me(user: CurrentUser) -> User:
    return user


@router.get("/users")
def users(db: Annotated[Session, Depends(get_db)], admin=Security(get_current_user)) -> list[User]:
    return list(db.exec(select(User)))


@router.post("/ping", dependencies=[Depends(get_current_user)])
def ping() -> str:
    return "pong"
"""


def test_fastapi_depends_is_a_call_from_the_function_that_declares_it(repo: Repo) -> None:
    build(
        repo,
        {
            "app/__init__.py": "",
            "app/models.py": (
                "from sqlmodel import SQLModel\n\n\nclass User(SQLModel, table=True):\n"
                "    id: int\n"
            ),
            "app/deps.py": DEPS,
        },
    )
    calls = {(s, t) for s, t in repo.pairs("calls") if s.startswith("app.deps")}
    assert calls >= {
        ("app.deps.get_current_user", "app.deps.get_db"),
        ("app.deps.me", "app.deps.get_current_user"),
        ("app.deps.users", "app.deps.get_db"),
        ("app.deps.users", "app.deps.get_current_user"),
        ("app.deps.ping", "app.deps.get_current_user"),
    }
    edge = repo.edge("calls", "app.deps.me", "app.deps.get_current_user")
    assert edge.provenance == Provenance.FASTAPI_DEPENDS  # type: ignore[attr-defined]
    assert "def me(user: CurrentUser)" in edge.quote  # type: ignore[attr-defined]
    # the chain from a handler through its dependencies to the table
    assert repo.map.chains("app.deps.me", "table:user").paths


def test_a_dependency_defined_after_its_user_was_mapped_is_called_as_in_a_fresh_map(
    repo: Repo,
) -> None:
    routes = (
        "from fastapi import Depends\n\nfrom app.deps import get_db\n\n\n"
        "def handler(db=Depends(get_db)):\n    return db\n"
    )
    build(repo, {"app/__init__.py": "", "app/deps.py": "def get_session():\n    pass\n"})
    build(repo, {"app/routes.py": routes})
    assert ("app.routes.handler", "app.deps.get_db") not in repo.pairs("calls")
    build(repo, {"app/deps.py": "def get_db():\n    pass\n"})
    assert ("app.routes.handler", "app.deps.get_db") in repo.pairs("calls")
