"""How an error is shown on a terminal or as JSON; its exit status comes from ``OUTCOMES``."""

from __future__ import annotations

import json

import click

from groundkit.errors import ErrorCode, ExitStatus, GroundkitError, UsageError

__all__ = ["ExitCode", "exit_code_for", "report_error", "wants_json"]

ExitCode = ExitStatus


def exit_code_for(error: GroundkitError) -> ExitCode:
    return error.outcome.exit_status


def report_error(error: GroundkitError | click.ClickException, *, as_json: bool) -> ExitCode:
    if isinstance(error, click.ClickException):
        error = UsageError(ErrorCode.USAGE, error.format_message())
    if as_json:
        click.echo(json.dumps({"error": error.to_dict()}))
    else:
        click.echo(f"error: {error.message}", err=True)
        if error.hint:
            click.echo(f"hint: {error.hint}", err=True)
    return exit_code_for(error)


def wants_json(argv: list[str]) -> bool:
    return "--json" in argv
