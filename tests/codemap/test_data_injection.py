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
