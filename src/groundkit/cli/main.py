"""`grk`: the command line over the library API."""

from __future__ import annotations

import importlib
import os
import sys

import click

from groundkit.answer.logguard import install_log_guard
from groundkit.cli.context import EMBEDDED_HELP, Context
from groundkit.cli.errors import ExitCode, report_error, wants_json
from groundkit.cli.output import neutral_output
from groundkit.errors import GroundkitError, InternalError
from groundkit.lifetime import end_with_command

__all__ = ["cli", "main"]

# Each command's module is imported when that command runs (or help lists it): a search has no
# use for the code map's, the evaluation's or the answer's modules, and without saved bytecode
# every module imported is compiled again by each process.
_COMMANDS = {
    "ingest": ("groundkit.cli.ingest", "ingest"),
    "search": ("groundkit.cli.search", "search"),
    "show": ("groundkit.cli.search", "show"),
    "collections": ("groundkit.cli.manage", "collections"),
    "status": ("groundkit.cli.manage", "status"),
    "delete": ("groundkit.cli.manage", "delete"),
    "reindex": ("groundkit.cli.manage", "reindex"),
    "migrate": ("groundkit.cli.migrate", "migrate"),
    "config": ("groundkit.cli.manage", "config"),
    "eval": ("groundkit.cli.eval", "eval_command"),
    "answer": ("groundkit.cli.answer", "answer_command"),
    "ask": ("groundkit.cli.ask", "ask_command"),
    "ai": ("groundkit.cli.ai", "ai_group"),
    "auth": ("groundkit.cli.auth", "auth_group"),
    "serve": ("groundkit.cli.serve", "serve"),
    "serve-mcp": ("groundkit.cli.serve", "serve_mcp"),
    "map": ("groundkit.cli.codemap", "map_group"),
    "trace": ("groundkit.cli.codemap", "trace_command"),
    "blast": ("groundkit.cli.codemap", "blast_command"),
    "diff": ("groundkit.cli.codemap", "diff_command"),
    "edge": ("groundkit.cli.codemap", "edge_command"),
}


class _LazyGroup(click.Group):
    """The top-level group: a command is looked up in ``_COMMANDS`` and imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        where = _COMMANDS.get(cmd_name)
        if where is None:
            return None
        command = getattr(importlib.import_module(where[0]), where[1])
        if not isinstance(command, click.Command):  # pragma: no cover - a wrong table entry
            raise TypeError(f"{where[0]}.{where[1]} is not a click command")
        return command


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--index-dir", help="Folder holding the collections [default: ./.groundkit].")
@click.option("--collection", "-c", help="Collection to use [default: default].")
@click.option("--config", "config_file", help="Config file [default: ./grk.toml if present].")
@click.option("--embedded", is_flag=True, help=EMBEDDED_HELP)
@click.version_option(package_name="groundkit", prog_name="grk")
@click.pass_context
def cli(
    ctx: click.Context,
    index_dir: str | None,
    collection: str | None,
    config_file: str | None,
    embedded: bool,
) -> None:
    """groundkit: search your own documents; every hit cites text a machine re-checks."""
    flags = {"index_dir": index_dir, "collection": collection}
    ctx.obj = Context(flags, config_file, embedded=embedded)


def main(argv: list[str] | None = None) -> int:
    """Run one command: ``argv``, or this process's own arguments (the ``grk`` script), in which
    case the process ends with the command (``groundkit.lifetime``)."""
    if argv is None:
        end_with_command()
    args = sys.argv[1:] if argv is None else argv
    install_log_guard()  # secret-shaped values never reach a log, whatever the command
    as_json = wants_json(args)
    # Shell completion (_GRK_COMPLETE=bash_source grk, ...) prints a script or candidates for
    # the shell to read, as bytes: it is not shown to anyone, and the wrapper takes only text.
    # (serve-mcp, whose stdout is JSON-RPC, unwraps its own streams: cli.output.protocol_output.)
    if os.environ.get("_GRK_COMPLETE"):
        return _run(args, as_json)
    with neutral_output(as_json=as_json):
        return _run(args, as_json)


def _run(args: list[str], as_json: bool) -> int:
    try:
        # Without standalone mode click returns a command's ctx.exit() status instead of exiting.
        status = cli.main(args=args, prog_name="grk", standalone_mode=False)
    except GroundkitError as exc:
        return report_error(exc, as_json=as_json)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.Abort:
        click.echo("aborted", err=True)
        return ExitCode.RUNTIME
    except click.ClickException as exc:
        return report_error(exc, as_json=as_json)
    except Exception as exc:  # a bug: still answer in the promised shape, without internals
        error = InternalError(f"internal error ({type(exc).__name__})")
        return report_error(error, as_json=as_json)
    return status if isinstance(status, int) else ExitCode.OK


if __name__ == "__main__":
    sys.exit(main())
