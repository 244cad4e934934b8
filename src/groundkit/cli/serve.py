"""`grk serve` (REST + MCP over HTTP) and `grk serve-mcp` (MCP over stdio): parse, build, run."""

from __future__ import annotations

import ipaddress
from typing import TYPE_CHECKING

import click

from groundkit.cli.context import pass_ctx
from groundkit.cli.output import protocol_output
from groundkit.errors import ErrorCode, UsageError, missing_extra

if TYPE_CHECKING:
    from groundkit.cli.context import Context

__all__ = ["serve", "serve_mcp"]


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a host name: it could resolve anywhere


def _need_extra() -> None:
    try:
        import fastapi  # noqa: F401
        import mcp  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        raise missing_extra(exc.name or "fastapi", "serve") from None


@click.command()
@click.option("--host", help="Address to bind [default: 127.0.0.1].")
@click.option("--port", type=int, help="Port to listen on [default: 8765].")
@click.option("--allow-remote", is_flag=True, help="Allow binding an address other than loopback.")
@pass_ctx
def serve(obj: Context, host: str | None, port: int | None, allow_remote: bool) -> None:
    """Serve the web UI (/), the REST API (/v1) and MCP over HTTP (/mcp) on one runtime."""
    _need_extra()
    import uvicorn

    from groundkit.serve.app import create_app
    from groundkit.serve.guards import allowed_hosts_for
    from groundkit.serve.logs import configure_logging
    from groundkit.serve.runtime import Runtime
    from groundkit.serve.secret import secret_from_env

    settings = obj.settings({"serve.host": host, "serve.port": port}).settings
    cfg = settings.serve
    if not _is_loopback(cfg.host) and not allow_remote:
        raise UsageError(
            ErrorCode.USAGE,
            f"refusing to bind {cfg.host}: only loopback is served by default",
            hint="pass --allow-remote (and set the secret) to serve other machines",
        )
    configure_logging()
    secret = secret_from_env(cfg.secret_env)
    runtime = Runtime(settings, secret=secret)
    extra = [cfg.public_host] if cfg.public_host else []
    app = create_app(runtime, allowed_hosts=allowed_hosts_for(cfg.host, cfg.port, extra))
    shown = f"[{cfg.host}]" if ":" in cfg.host else cfg.host
    changes = "enabled" if secret else f"disabled (set {cfg.secret_env} to enable)"
    roots = len(cfg.ingest_roots)
    paths = f"under {roots} folder(s)" if roots else "off (list folders in serve.ingest_roots)"
    click.echo(
        f"grk serve: http://{shown}:{cfg.port} (web UI /, REST /v1, MCP /mcp);"
        f" changes {changes}; path ingest {paths}",
        err=True,
    )
    try:
        uvicorn.run(
            app,
            host=cfg.host,
            port=cfg.port,
            access_log=False,  # ours logs the route template, never the raw path
            log_level="warning",
            server_header=False,
            # SIGTERM stops the server even while requests are still running (reads of sources
            # are bounded, but a client may hold a slow stream open).
            timeout_graceful_shutdown=10,
        )
    finally:
        runtime.close()


@click.command("serve-mcp")
@pass_ctx
def serve_mcp(obj: Context) -> None:
    """Serve MCP over stdio (for Claude Desktop, Claude Code, ...). Logs go to stderr."""
    _need_extra()
    from groundkit.serve.logs import configure_logging
    from groundkit.serve.mcp_server import create_mcp_server
    from groundkit.serve.runtime import Runtime
    from groundkit.serve.secret import secret_from_env

    settings = obj.settings().settings
    configure_logging()
    runtime = Runtime(settings, secret=secret_from_env(settings.serve.secret_env))
    try:
        with protocol_output():  # stdout carries JSON-RPC: never rewritten
            create_mcp_server(runtime).run("stdio")
    finally:
        runtime.close()
