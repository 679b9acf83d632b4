"""How the command line meets a user's mistake, a Ctrl-C or a crash: ONE line on stderr.

Every user mistake surfaces as a ConfigError (or a pydantic / YAML error from a config file) and
is printed by :func:`user_errors` as one line ``error: ...`` with exit code 2; so is every mistake
typer finds while parsing the command line (``--players abc``, a missing option, an unknown
command: :class:`OneLineUsageErrors`). Anything else is a bug and keeps its traceback. A Ctrl-C
during a run says that finished chunks are kept (:func:`keeping_finished_chunks`), exit code 130.
"""
from __future__ import annotations

import functools
import os
import signal
import sys
import threading
from pathlib import Path

import typer
import yaml
from typer._click.exceptions import BadParameter, MissingParameter, NoArgsIsHelpError, UsageError
from typer.core import TyperGroup

from sim.core.engine import ConfigError
from sim.core.yaml_files import shown

USER_ERROR_EXIT = 2
ONE_LINE_LIMIT = 2000        # an error line is never longer, whatever value a file held
INTERRUPTED_EXIT = 130
INTERRUPT_AGAIN_SECONDS = 0.05   # a swallowed Ctrl-C is raised again this much later (keep_interrupts)

# What a value typer could not convert was expected to be, by pydantic's error type
# (typer converts option values with pydantic TypeAdapters).
EXPECTED_BY_ERROR_TYPE = {
    "int_parsing": "an integer", "int_type": "an integer", "int_from_float": "an integer",
    "float_parsing": "a number", "float_type": "a number", "bool_parsing": "true or false",
}


def parameter_name(parameter) -> str:
    """``--players`` for an option (its long name), ``GAME`` for an argument."""
    options = [name for name in getattr(parameter, "opts", []) if name.startswith("--")]
    if getattr(parameter, "param_type_name", "") == "option" and options:
        return max(options, key=len)
    return (parameter.name or "value").upper()


def usage_error_line(error: UsageError) -> str:
    """One line for a command-line parsing error: ``--players: expected an integer, found 'abc'``,
    and where to find the command's help."""
    from pydantic import ValidationError

    cause = error.__cause__
    if isinstance(error, MissingParameter) and error.param is not None:
        text = f"{parameter_name(error.param)}: required but missing"
    elif isinstance(error, BadParameter) and error.param is not None:
        if isinstance(cause, ValidationError) and cause.errors():
            first = cause.errors()[0]
            expected = EXPECTED_BY_ERROR_TYPE.get(first["type"], first["msg"])
            text = f"{parameter_name(error.param)}: expected {expected}, found {first.get('input')!r}"
        else:
            text = f"{parameter_name(error.param)}: {error.message}"
    else:
        text = error.format_message()
    if error.ctx is not None:
        text = f"{text.rstrip('.')} (see: {error.ctx.command_path} --help)"
    return " ".join(text.split())


class OneLineUsageErrors(TyperGroup):
    """The courtsim group: typer's usage errors (``--players abc``, ``--seed 1.5``, a missing
    option, an unknown command or option, in every command and sub-command) as ONE line
    ``error: ...`` with exit code 2, like every other user error, instead of a usage box.
    Sub-commands are parsed inside this group's ``invoke``, so both places are covered."""

    def make_context(self, *args, **kwargs):
        with usage_errors_on_one_line():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx):
        with usage_errors_on_one_line():
            return super().invoke(ctx)


class usage_errors_on_one_line:
    """Context manager: a UsageError -> its one line on stderr and exit code 2 (no arguments
    at all still shows the help, as ``no_args_is_help`` asks)."""

    def __enter__(self):
        return self

    def __exit__(self, kind, error, traceback):
        if isinstance(error, UsageError) and not isinstance(error, NoArgsIsHelpError):
            print(f"error: {usage_error_line(error)}", file=sys.stderr)
            raise typer.Exit(USER_ERROR_EXIT) from None
        return False


def one_line(error: BaseException) -> str:
    """A single-line message for a user-facing error (pydantic and YAML ones are multi-line)."""
    from pydantic import ValidationError

    if isinstance(error, ValidationError):
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'value'}: {e['msg']}"
                             for e in error.errors())
        text = f"invalid {error.title}: {problems}"
    elif isinstance(error, yaml.YAMLError):
        text = f"invalid YAML: {error}"
    else:
        text = str(error)
    return shown(text, ONE_LINE_LIMIT)


def user_error_types() -> tuple[type[BaseException], ...]:
    from pydantic import ValidationError
    return (ConfigError, ValidationError, yaml.YAMLError)


def user_errors(command):
    """Decorator for every command: user errors -> one ``error:`` line and exit code 2."""
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except user_error_types() as error:
            print(f"error: {one_line(error)}", file=sys.stderr)
            raise typer.Exit(USER_ERROR_EXIT) from None
    return wrapper


def keep_interrupts(unraisable) -> None:
    """A Ctrl-C that lands while numba compiles a kernel is raised inside a C callback of
    llvmlite, which can only print it as "Exception ignored ... KeyboardInterrupt" and go on: the
    command would not stop and the user would see a traceback. Raise it again in the main thread,
    where Python code sees it (keeping_finished_chunks then prints the interrupted line): from a
    moment later, since raised in this hook it would be swallowed again."""
    if isinstance(unraisable.exc_value, KeyboardInterrupt):
        threading.Timer(INTERRUPT_AGAIN_SECONDS, os.kill, (os.getpid(), signal.SIGINT)).start()
        return
    sys.__unraisablehook__(unraisable)


def keeping_finished_chunks(out_dir: Path, play):
    """Run ``play()``; on Ctrl-C or a crash say that finished chunks are kept for a resume."""
    try:
        return play()
    except user_error_types():
        raise
    except KeyboardInterrupt:
        print(f"interrupted: finished chunks are kept in {out_dir}; "
              "run the same command again to resume", file=sys.stderr)
        raise typer.Exit(INTERRUPTED_EXIT) from None
    except Exception:
        print(f"the run crashed (traceback below); finished chunks are kept in {out_dir}; "
              "run the same command again to resume", file=sys.stderr)
        raise
