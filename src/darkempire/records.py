"""Game records: a game as its config, seed and every choice in order, and replaying them (spec 9.3).

A :class:`GameRecord` is all it takes to rebuild every state of a game,
because the engine is deterministic (rule 9.3). :func:`record_game` plays a
game between bots and records it; :func:`replay_record` re-runs a record
through the rules and checks that it reproduces: every choice legal, every
state the same as when it was recorded (when the record carries state
digests), and the same verdict. A record that does not reproduce raises a
:class:`RecordError` naming the first divergent choice.

Records travel as JSON with :mod:`darkempire.serialization`
(``{"format": "darkempire/1", "type": "game-record", ...}``).

**A record carries the seed**, and the seed deals the game again: whoever
holds the record of a game in progress knows every hand, every victor card
and every card still to come. Keep records on the server while the game is
on; send players and spectators a :class:`~darkempire.public_record.PublicRecord`
instead (:func:`~darkempire.public_record.public_record`), which shows only
what a spectator saw.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Sequence

import attrs

from darkempire.rules import engine
from darkempire.rules.actions import Action
from darkempire.rules.cards import Faction, Theme, faction_name
from darkempire.rules.errors import DarkEmpireError
from darkempire.rules.scoring import Verdict
from darkempire.rules.state import GameConfig, GameState
from darkempire.text import action_text, seat_name, verdict_difference
from darkempire.wire.envelope import canonical_text, encode
from tablekit import records as kit

__all__ = [
    "Choice",
    "DivergentChoiceError",
    "GameRecord",
    "RecordError",
    "ReplayedGame",
    "UnfinishedRecordError",
    "VerdictMismatchError",
    "record_game",
    "record_states",
    "replay_record",
    "state_digest",
]


@attrs.frozen
class Choice(kit.Choice[Action]):
    """One decision of a game: ``seat`` chose ``action`` (rule 9.2).

    The kit's :class:`tablekit.records.Choice` for Dark Empire's actions: its fields are declared again with
    their concrete types, so that the wire format's converter and schemas, which read the types, see an
    :data:`~darkempire.rules.actions.Action` rather than a type variable.

    :ivar seat: the seat, ``0 .. players - 1``.
    :ivar action: its action, as passed to :func:`~darkempire.rules.engine.apply`.
    """

    seat: int
    action: Action


def _choices(value: Sequence[Choice | tuple[int, Action]]) -> tuple[Choice, ...]:
    return tuple(c if isinstance(c, Choice) else Choice(c[0], c[1]) for c in value)


def _strings(value: Sequence[str]) -> tuple[str, ...]:
    return tuple(value)


@attrs.frozen
class GameRecord:
    """A whole game: enough to replay it (rule 9.3).

    :ivar config: the game's options.
    :ivar seed: the game's seed.
    :ivar choices: every choice in the order it was applied; ``(seat, action)``
        pairs are accepted and stored as :class:`Choice`.
    :ivar verdict: the verdict the game reached, or ``None`` for an unfinished game.
    :ivar digests: optionally, :func:`state_digest` of the state after each
        choice (one per choice, or none), so that a replay finds the very
        first choice that does not reproduce, even a legal one.
    :ivar theme: the faction names the game was shown with, which a replay shows again
        (``darkempire replay``; its ``--theme`` overrides it). The rules never read it. A record written
        before records carried it has none in its JSON, and is Steam Noir's.
    """

    config: GameConfig
    seed: int
    choices: tuple[Choice, ...] = attrs.field(converter=_choices)
    verdict: Verdict | None
    digests: tuple[str, ...] = attrs.field(default=(), converter=_strings)
    theme: Theme = Theme.STEAM_NOIR

    def pairs(self) -> tuple[tuple[int, Action], ...]:
        """The choices as ``(seat, action)`` pairs, as :func:`darkempire.rules.engine.replay` takes them."""
        return tuple((c.seat, c.action) for c in self.choices)


class RecordError(DarkEmpireError, kit.RecordError):
    """A game record that does not reproduce its game (the kit's :class:`~tablekit.records.RecordError`)."""


class DivergentChoiceError(RecordError, kit.DivergentChoiceError):
    """Replaying a record, a choice was illegal or led to a different state than recorded (the kit's
    :class:`~tablekit.records.DivergentChoiceError`, raised by its one replay loop).

    :ivar index: the choice's position in ``GameRecord.choices``, from 0.
    :ivar seat: the seat of that choice.
    :ivar action: the action of that choice.
    :ivar reason: why it diverges (the broken rule, or the digest mismatch).

    Its message says the choice in the game's words, with ``theme``'s faction names: ``choice 5 (seat 1
    discards Workers 5 #3, Suffragettes 4 #27) diverges: ...``.
    """

    action: Action

    def __init__(self, index: int, seat: int, action: Action, reason: str, theme: Theme = Theme.STEAM_NOIR) -> None:
        super().__init__(index, seat, action, reason)
        try:
            words = action_text(action, theme)
        except (AttributeError, TypeError, KeyError, ValueError):  # not an action of the game: keep the kit's quote
            return
        self.args = (f"choice {index} ({seat_name(seat)} {words}) diverges: {reason}",)


class UnfinishedRecordError(RecordError):
    """The record has a verdict, but its choices end before the game is over."""


class VerdictMismatchError(RecordError):
    """The replayed game reached another verdict than the recorded one (or the record lacks the real one).

    Its message gives both verdicts in the game's words (:func:`~darkempire.text.verdict_difference`, with
    ``theme``'s faction names).

    :ivar recorded: the record's verdict.
    :ivar replayed: the verdict the rules give.
    """

    recorded: Verdict | None
    replayed: Verdict | None

    def __init__(self, recorded: Verdict | None, replayed: Verdict | None, theme: Theme = Theme.STEAM_NOIR) -> None:
        super().__init__(
            f"the record's verdict is not the replayed game's (rule 9.3): "
            f"{verdict_difference(recorded, replayed, theme)}"
        )
        self.recorded = recorded
        self.replayed = replayed


def state_digest(state: GameState) -> str:
    """A short fingerprint of ``state``: 16 hex digits of the SHA-256 of its canonical JSON (spec 9.3).

    Equal states have equal digests; different states differ with overwhelming probability.
    """
    return hashlib.sha256(canonical_text(encode(state, "game-state")).encode()).hexdigest()[:16]


@attrs.frozen
class ReplayedGame:
    """The result of :func:`replay_record`.

    :ivar record: the record replayed.
    :ivar states: the state after the deal, then after each choice (``len(choices) + 1`` states).
    """

    record: GameRecord
    states: tuple[GameState, ...]

    @property
    def final(self) -> GameState:
        """The last state."""
        return self.states[-1]


def record_states(record: GameRecord) -> Iterator[GameState]:
    """The states of a recorded game: the deal, then the state after each choice.

    The choices are re-run by the kit's one replay loop, :func:`tablekit.records.replay_choices`, with
    :func:`~darkempire.rules.engine.apply` as its step.

    :raises DivergentChoiceError: at the first illegal choice.
    :raises ~darkempire.rules.errors.ConfigError: if the record's config is invalid.
    """
    state = engine.deal(record.config, record.seed)
    yield state
    try:
        for _, _, state in kit.replay_choices(state, record.choices, engine.apply, divergence=DivergentChoiceError):
            yield state
    except DivergentChoiceError as error:
        if record.theme is Theme.STEAM_NOIR:
            raise
        # The kit's loop words the choice with the default names: say it again with the record's.
        reason = _relabel(error.reason, record.theme)
        themed = DivergentChoiceError(error.index, error.seat, error.action, reason, record.theme)
        raise themed from error.__cause__


def _relabel(text: str, theme: Theme) -> str:
    """``text`` (a refusal of the rules, which name factions with Steam Noir's names, as in a card label
    ``"Workers 4 #2"`` or ``"its Workers temporary support card"``) with every faction in ``theme``'s names
    instead."""
    names = {faction_name(f, Theme.STEAM_NOIR): faction_name(f, theme) for f in Faction}
    name = re.compile(r"\b(" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + r")\b")
    return name.sub(lambda match: names[match.group(1)], text)


def replay_record(record: GameRecord) -> ReplayedGame:
    """Re-run ``record`` through the rules and check that it reproduces (rule 9.3).

    Checks, in order: each choice is legal when it comes; if the record has
    digests, the state after each choice has the recorded digest; the game is
    over exactly when the record has a verdict; the verdict is the recorded one.

    :returns: every state of the game.
    :raises DivergentChoiceError: naming the first choice that is illegal or,
        with digests, leads to a different state.
    :raises UnfinishedRecordError: the record claims a verdict but the game is not over.
    :raises VerdictMismatchError: the verdict differs.
    :raises RecordError: the record has a number of digests other than 0 or one per choice.
    """
    if record.digests and len(record.digests) != len(record.choices):
        raise RecordError(f"the record has {len(record.digests)} digests for {len(record.choices)} choices")
    states: list[GameState] = []
    for index, state in enumerate(record_states(record)):
        if index and record.digests and state_digest(state) != record.digests[index - 1]:
            choice = record.choices[index - 1]
            raise DivergentChoiceError(
                index - 1,
                choice.seat,
                choice.action,
                "the state after it is not the recorded one (digest differs)",
                record.theme,
            )
        states.append(state)
    final = states[-1]
    if record.verdict is not None and not final.is_over:
        raise UnfinishedRecordError(
            f"the record has a verdict but its {len(record.choices)} choices end in the {final.phase.value} phase,"
            f" in week {final.week} of month {final.month}, before the game is over"
        )
    if final.verdict != record.verdict:
        raise VerdictMismatchError(record.verdict, final.verdict, record.theme)
    return ReplayedGame(record, tuple(states))


def record_game(config: GameConfig, seed: int, bots: Sequence[object], *, digests: bool = True) -> GameRecord:
    """Play a game between ``bots`` with :func:`darkempire.bots.iter_game` and record it (rule 9.3).

    :param config: the game's options.
    :param seed: the game's seed.
    :param bots: one :class:`~darkempire.bots.Bot` per seat.
    :param digests: whether to store a digest of the state after each choice.
    :returns: the record of the finished game, with its verdict.
    """
    from darkempire.bots import Bot, iter_game

    players: list[Bot] = []
    for bot in bots:
        if not isinstance(bot, Bot):
            raise TypeError(f"{bot!r} is not a bot (it has no choose(view, legal) method)")
        players.append(bot)
    choices: list[Choice] = []
    prints: list[str] = []
    final: GameState | None = None
    for turn in iter_game(config, seed, players):
        choices.append(Choice(turn.seat, turn.action))
        if digests:
            prints.append(state_digest(turn.after))
        final = turn.after
    verdict = final.verdict if final is not None else None
    return GameRecord(config, seed, tuple(choices), verdict, tuple(prints))
