"""The one place where error codes become exit statuses."""

from __future__ import annotations

import json
from enum import IntEnum

import click

from groundkit.errors import ErrorCode, GroundkitError, UsageError

__all__ = ["ExitCode", "exit_code_for", "report_error", "wants_json"]


class ExitCode(IntEnum):
    OK = 0
    RUNTIME = 1
    USAGE = 2
    PARTIAL = 3  # some inputs were skipped
    REGRESSION = 4  # grk eval --compare: a metric fell below the baseline beyond its CI
    SYMBOL_NOT_FOUND = 5  # grk trace/blast: no node has that name (nearest names suggested)
    SYMBOL_AMBIGUOUS = 6  # grk trace/blast: several nodes do (candidates listed)


_BY_CODE = {
    ErrorCode.SYMBOL_NOT_FOUND: ExitCode.SYMBOL_NOT_FOUND,
    ErrorCode.SYMBOL_AMBIGUOUS: ExitCode.SYMBOL_AMBIGUOUS,
}


def exit_code_for(error: GroundkitError) -> ExitCode:
    if error.code in _BY_CODE:
        return _BY_CODE[error.code]
    return ExitCode.USAGE if isinstance(error, UsageError) else ExitCode.RUNTIME


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
