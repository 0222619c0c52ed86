"""A command-line shell for any game of the kit: subcommands, usage errors and exit statuses.

A game's command is a list of :class:`Command` values, each one subcommand (``demo``, ``replay``, ...) with
its help, its arguments and the function that runs it; :func:`main` (or a :class:`Shell`) builds the
:mod:`argparse` parser, runs the subcommand that the arguments name and turns what went wrong into an exit
status:

* bad arguments exit with status :data:`EXIT_USAGE` (2) and the subcommand's usage on standard error, by
  :class:`SystemExit` as :mod:`argparse` does. That covers what argparse checks and what a command checks
  itself (options that depend on each other) by raising :class:`UsageError`. A quoted argument in a usage
  message is cut short (:data:`USAGE_WORD_LIMIT`): ``--seed`` followed by a hundred thousand digits does
  not come back whole;
* a :class:`~tablekit.errors.KitError` (any game's refusal, a record that does not replay, a file that
  cannot be read) gives exactly one line on standard error, ``program: message``, and the shell's
  ``error_status`` (default :data:`EXIT_ERROR`, 1);
* a :class:`CommandExit` stops a command with its own status and line (a player who leaves a game);
* Ctrl-C (:class:`KeyboardInterrupt`) prints ``Interrupted.`` and gives :data:`EXIT_INTERRUPTED` (130);
* a standard output closed early (``program demo | head -1``: :class:`BrokenPipeError`) is a normal end: the
  rest of the output is thrown away, nothing is printed on standard error, and the status is the command's
  :data:`EXIT_OK` (0).

The parsers it builds show every option's default in ``--help`` (:class:`HelpFormatter`), say the
program's version with ``--version`` when the shell is given one, and report an argument that no
option takes (``program demo extra``) with the subcommand's usage rather than the program's.

One command may host several games' command sets (a shell's ``hosted`` programs, each a :class:`Program`
such as another game's :class:`Shell`): ``program --game NAME subcommand`` hands the rest of the arguments to
game ``NAME``'s program, and without ``--game`` a hosted program that :meth:`~Program.claims` the arguments (a
record file of its own format after ``replay``) gets them; anything else is the hosting shell's own game.

The kit needs no terminal library. The console convention: a command writes to an *output* that the shell
builds, at each call, from the standard output of that moment (``sys.stdout`` then), with the
game's ``output`` factory. A game that wants colours wraps the stream in its terminal library there (Dark
Empire wraps it in a ``rich`` console), and should write plain text when the stream is not a terminal (a
pipe, a file, CI); the plain factory is ``lambda stream: stream``. Error lines are plain, one line each,
whatever the output.

>>> def hello(args, out):
...     print(f"hello, {args.name}", file=out)
...     return 0
>>> greet = Command("greet", "say hello", hello, lambda parser: parser.add_argument("name"))
>>> main("toy", "A toy.", [greet], ["greet", "world"], output=lambda stream: stream)
hello, world
0
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import types
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Generic, NoReturn, Protocol, TextIO, TypeVar

import attrs

from tablekit.errors import KitError

__all__ = [
    "EXIT_ERROR",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "USAGE_WORD_LIMIT",
    "Command",
    "CommandExit",
    "HelpFormatter",
    "Program",
    "Shell",
    "UsageError",
    "main",
    "one_line",
    "other_seat_kinds",
    "seat_kinds",
]

O = TypeVar("O")

#: Exit status of a command that did its job.
EXIT_OK = 0
#: Exit status after a :class:`~tablekit.errors.KitError`, unless the shell names another.
EXIT_ERROR = 1
#: Exit status of bad arguments, as :mod:`argparse` gives it.
EXIT_USAGE = 2
#: Exit status after Ctrl-C (128 plus SIGINT's number, as shells report it).
EXIT_INTERRUPTED = 130

#: A word (a run of characters without a space) of a usage message longer than this is cut to it and its
#: length given: argparse quotes a refused argument whole ("invalid int value: '999...'"), however long.
USAGE_WORD_LIMIT = 80

_LONG_WORD = re.compile(r"\S{%d,}" % (USAGE_WORD_LIMIT + 1))
# Control characters (C0, DEL, C1), line breaks first among them: one would split the error line in two.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


class UsageError(KitError, ValueError):
    """Arguments that argparse accepted one at a time but the command refuses (``--seat 4`` in a 3-player
    game): the shell reports it as argparse reports its own, with the subcommand's usage, and exits 2."""


class CommandExit(KitError):
    """Stop the command with exit ``status`` and ``message`` as the one line on standard error (no program
    name before it): how a command ends early on purpose, such as a player leaving the game.

    :ivar status: the exit status.
    :ivar message: the line to print.
    """

    status: int
    message: str

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _no_arguments(parser: argparse.ArgumentParser) -> None:
    """A command without arguments adds none."""


@attrs.frozen
class Command(Generic[O]):
    """One subcommand.

    :ivar name: what the user types (``"demo"``).
    :ivar help: one line for the command's help.
    :ivar run: runs the command with the parsed arguments and the output (see the console convention
        above), and returns its exit status; it raises :class:`UsageError` for arguments it refuses.
    :ivar add_arguments: adds the command's arguments to its parser.
    """

    name: str
    help: str
    run: Callable[[argparse.Namespace, O], int]
    add_arguments: Callable[[argparse.ArgumentParser], object] = _no_arguments


def _named_kinds(spec: str, known: Collection[str]) -> list[str]:
    kinds = [kind.strip() for kind in spec.split(",")]
    unknown = [kind for kind in kinds if kind not in known]
    if unknown:
        raise UsageError(f"--bots: unknown bot kind {unknown[0]!r:.40}; choose from {', '.join(sorted(known))}")
    return kinds


def seat_kinds(spec: str, known: Collection[str], players: int) -> list[str]:
    """The bot kind of each seat that a ``--bots`` option names: one kind for every seat, or one per seat in
    seat order, separated by commas.

    >>> seat_kinds("greedy", {"greedy", "random"}, 3)
    ['greedy', 'greedy', 'greedy']

    :raises UsageError: a kind not in ``known``, or a list of the wrong length.
    """
    kinds = _named_kinds(spec, known)
    if len(kinds) == 1:
        return kinds * players
    if len(kinds) != players:
        raise UsageError(f"--bots: give one kind, or one per seat ({players}), not {len(kinds)}")
    return kinds


def other_seat_kinds(spec: str, known: Collection[str], players: int, seat: int) -> list[str | None]:
    """The bot kind of each seat but a person's ``seat`` (``None`` there) that a ``play --bots`` option names:
    one kind for every other seat, or one per other seat in seat order.

    >>> other_seat_kinds("greedy,random", {"greedy", "random"}, 3, seat=1)
    ['greedy', None, 'random']

    :raises UsageError: a kind not in ``known``, or a list of the wrong length.
    """
    kinds = _named_kinds(spec, known)
    if len(kinds) == 1:
        kinds *= players - 1
    if len(kinds) != players - 1:
        raise UsageError(
            f"--bots: give one kind, or one for each of the {players - 1} other seats in seat order, not {len(kinds)}"
        )
    return [*kinds[:seat], None, *kinds[seat:]]


def one_line(text: str) -> str:
    """``text`` with every control character, line breaks included, written as its escape (``\\n``,
    ``\\x1b``): an error line stays one line, and a message quoting hostile input cannot move the cursor.

    >>> one_line("bad\\nrecord\\x1b[2J")
    'bad\\\\nrecord\\\\x1b[2J'
    """
    return _CONTROL.sub(lambda match: repr(match.group())[1:-1], text)


def _shorten(message: str) -> str:
    return _LONG_WORD.sub(lambda m: f"{m.group()[: USAGE_WORD_LIMIT - 3]}... ({len(m.group())} characters)", message)


class HelpFormatter(argparse.HelpFormatter):
    """The help of an option ends with its default, ``(default 4)``, unless its text already names it.

    An option without a default (``None``), a flag (default ``False``) and ``--help`` say nothing more;
    unlike :class:`argparse.ArgumentDefaultsHelpFormatter`, an option whose help already says
    ``default`` is left as written, so the default is never given twice.
    """

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if default is None or default is False or default is argparse.SUPPRESS or "default" in text:
            return action.help
        # argparse %-formats the help: a literal "%" in the default must be doubled.
        return f"{text} (default {str(default).replace('%', '%%')})".lstrip()


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors cut long words short and stay on one line."""

    def error(self, message: str) -> NoReturn:
        """Print the usage and ``message`` (shortened) on standard error, and exit with status 2."""
        super().error(one_line(_shorten(message)))


class Program(Protocol):
    """A command line that a :class:`Shell` can host beside its own game's commands; a :class:`Shell` is one."""

    def main(self, argv: Sequence[str] | None = None) -> int:
        """Run the command line with ``argv`` and return its exit status."""
        ...

    def claims(self, arguments: Sequence[str]) -> bool:
        """Whether the program takes ``arguments`` given to its host without ``--game``."""
        ...

    def named(self, program: str) -> Program:
        """The same command line, its usage and error lines headed ``program``."""
        ...


def _games(value: Mapping[str, Program]) -> Mapping[str, Program]:
    """The hosted games, copied into a read-only mapping (a shell never changes)."""
    return types.MappingProxyType(dict(value))


def _game_option(arguments: Sequence[str]) -> tuple[str | None, list[str]]:
    """A leading ``--game NAME`` (or ``--game=NAME``) and the arguments after it; ``None`` and all the
    arguments without one."""
    if len(arguments) >= 2 and arguments[0] == "--game":
        return arguments[1], list(arguments[2:])
    if arguments and arguments[0].startswith("--game="):
        return arguments[0].partition("=")[2], list(arguments[1:])
    return None, list(arguments)


@attrs.frozen
class Shell(Generic[O]):
    """A program made of :class:`Command` values, hosting other games' shells if it is given some.

    :ivar program: the program's name, in usage lines and before error messages.
    :ivar description: one paragraph for the top-level help.
    :ivar commands: the subcommands, in the order the help lists them; names must differ.
    :ivar output: builds a command's output from the standard output stream (see the console convention).
    :ivar error_status: the exit status after a :class:`~tablekit.errors.KitError`.
    :ivar game: the name of this shell's own game for ``--game`` (needed when it hosts others).
    :ivar hosted: other games' programs (their shells) by name: ``program --game NAME ...`` runs
        ``hosted[NAME]`` with the arguments after the option, its usage and error lines headed
        ``program --game NAME``.
    :ivar recognizes: whether this shell's game claims arguments given to a shell that hosts it without
        ``--game`` (a record file of its format after ``replay``); ``None`` claims nothing.
    :ivar version: the program's version, which ``program --version`` prints (``program 1.2``); ``None``: no
        ``--version`` option.
    """

    program: str
    description: str
    commands: Sequence[Command[O]]
    output: Callable[[TextIO], O]
    error_status: int = EXIT_ERROR
    game: str = ""
    hosted: Mapping[str, Program] = attrs.field(factory=dict, converter=_games)
    recognizes: Callable[[Sequence[str]], bool] | None = None
    version: str | None = None

    def __attrs_post_init__(self) -> None:
        names = [command.name for command in self.commands]
        if not names or len(set(names)) != len(names):
            raise KitError(f"a shell needs commands with distinct names, not {names}")
        if self.hosted and (not self.game or self.game in self.hosted):
            raise KitError(f"a shell hosting {sorted(self.hosted)} needs a game name of its own, not {self.game!r}")

    def parsers(self) -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
        """The top-level parser and each command's, by name."""
        parser = _Parser(prog=self.program, description=self.description, formatter_class=HelpFormatter)
        if self.version is not None:
            parser.add_argument("--version", action="version", version=f"{self.program} {self.version}")
        if self.hosted:
            games = (self.game, *self.hosted)
            parser.add_argument("--game", choices=games, default=self.game,
                                help=f"the game, before the subcommand (default {self.game})")
        names = ",".join(command.name for command in self.commands)
        sub = parser.add_subparsers(dest="command", required=True, metavar=f"{{{names}}}")
        subparsers: dict[str, argparse.ArgumentParser] = {}
        for command in self.commands:
            subparsers[command.name] = sub.add_parser(
                command.name, help=command.help, description=command.help, formatter_class=HelpFormatter
            )
            command.add_arguments(subparsers[command.name])
        return parser, subparsers

    def claims(self, arguments: Sequence[str]) -> bool:
        """Whether ``recognizes`` claims ``arguments`` (:class:`Program`)."""
        return self.recognizes is not None and self.recognizes(arguments)

    def named(self, program: str) -> Shell[O]:
        """This shell under the name ``program`` (:class:`Program`)."""
        return attrs.evolve(self, program=program)

    def chosen(self, arguments: Sequence[str]) -> tuple[Program, list[str]] | None:
        """The hosted game's program that ``arguments`` choose, with the arguments it is to run; ``None`` when
        they are this shell's own game's (or name an unknown game: the parser refuses it)."""
        name, rest = _game_option(arguments)
        if name is None:
            name = next((n for n, program in self.hosted.items() if program.claims(rest)), None)
        if name is None or name not in self.hosted:
            return None
        return self.hosted[name].named(f"{self.program} --game {name}"), rest

    def main(self, argv: Sequence[str] | None = None) -> int:
        """Run the command that ``argv`` (default: the process arguments) names, its output built from
        ``sys.stdout`` and its error line written to ``sys.stderr``, as they are at the time of the call
        (where argparse writes too, and where a test's capture finds them). Arguments that choose a hosted
        game (:meth:`chosen`) are run by its shell.

        :returns: the command's exit status, the shell's ``error_status`` after a
            :class:`~tablekit.errors.KitError`, a :class:`CommandExit`'s status, 130 after Ctrl-C, or 0 when
            standard output was closed before the command finished (a reader such as ``head`` had enough).
        :raises SystemExit: with status 2 for bad arguments (and 0 after ``--help`` or ``--version``), as
            argparse does.
        """
        arguments = list(sys.argv[1:] if argv is None else argv)
        hosted = self.chosen(arguments) if self.hosted else None
        if hosted is not None:
            return hosted[0].main(hosted[1])
        parser, subparsers = self.parsers()
        args, extra = parser.parse_known_args(arguments)
        command = next(c for c in self.commands if c.name == args.command)
        if extra:  # the top-level parser would report them with the program's usage, not the command's
            subparsers[command.name].error(f"unrecognized arguments: {' '.join(extra)}")
        try:
            status = command.run(args, self.output(sys.stdout))
            sys.stdout.flush()  # here, where a closed pipe is caught, rather than at the interpreter's exit
            return status
        except BrokenPipeError:
            return _output_closed()
        except UsageError as error:
            subparsers[command.name].error(str(error))
        except CommandExit as stop:
            return self._say(stop.message, stop.status)
        except KitError as error:
            return self._say(f"{self.program}: {error}", self.error_status)
        except KeyboardInterrupt:
            return self._say("Interrupted.", EXIT_INTERRUPTED)

    @staticmethod
    def _say(line: str, status: int) -> int:
        sys.stderr.write(one_line(line) + "\n")
        sys.stderr.flush()
        return status


def _output_closed() -> int:
    """Standard output was closed by its reader: send what is still buffered, and whatever the interpreter
    flushes on its way out, to the null device, so that no "Exception ignored" message follows; the end is a
    normal one (:data:`EXIT_OK`)."""
    try:
        descriptor = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # a stream without a descriptor (a test's capture)
        return EXIT_OK
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, descriptor)
    os.close(null)
    return EXIT_OK


def main(
    program: str,
    description: str,
    commands: Sequence[Command[O]],
    argv: Sequence[str] | None = None,
    *,
    output: Callable[[TextIO], O],
    error_status: int = EXIT_ERROR,
    game: str = "",
    hosted: Mapping[str, Program] | None = None,
    version: str | None = None,
) -> int:
    """Build the :class:`Shell` of ``commands`` (hosting the ``hosted`` games' shells beside its own ``game``)
    and run it with ``argv``: see :meth:`Shell.main`."""
    return Shell(
        program, description, commands, output, error_status, game=game, hosted=hosted or {}, version=version
    ).main(argv)
