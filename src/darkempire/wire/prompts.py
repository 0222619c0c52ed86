"""The prompt: what a server sends a seat whose choice it awaits (spec 9.2, 9.4)."""

from __future__ import annotations

import attrs

from darkempire.rules import engine
from darkempire.rules.actions import Action
from darkempire.rules.cards import Theme
from darkempire.rules.errors import InvalidArgumentError
from darkempire.rules.state import GameState
from darkempire.text import action_label
from darkempire.validity import check_view
from darkempire.rules.views import PlayerView, player_view
from darkempire.wire.typecheck import check_types
from darkempire.wire.wire_errors import InvalidValueError, SerializationError, quote

__all__ = ["ALWAYS_SENT", "Prompt", "check_prompt", "make_prompt", "prompt_labels"]

#: The metadata key of a field with a default that a writer always sends anyway: the message schemas
#: (:mod:`darkempire.schema`) require it, while a loader still accepts an older message without it.
ALWAYS_SENT = "always_sent"


def prompt_labels(view: PlayerView, legal_actions: tuple[Action, ...], theme: Theme) -> tuple[str, ...]:
    """The menu label of each legal action, in ``theme``: :func:`darkempire.text.action_label` with the
    seat's view, so that a pass names the seat it goes to and a reinforcement whose card it is attached to.

    A label names only cards of the action, which come from the seat's own hand and the table it sees, and
    the labels of one prompt differ from each other (they name every card of their action by its id).
    """
    return tuple(action_label(action, theme, view) for action in legal_actions)


def _default_labels(prompt: Prompt) -> tuple[str, ...]:
    """The labels of a prompt built without them; none for one whose fields are not well typed (a value built by
    hand that the format cannot carry: encoding it raises the error that names the bad field)."""
    try:
        check_types(prompt.view, PlayerView)
        check_types(prompt.legal_actions, tuple[Action, ...])
        check_types(prompt.theme, Theme)
    except SerializationError:
        return ()
    return prompt_labels(prompt.view, prompt.legal_actions, prompt.theme)


@attrs.frozen
class Prompt:
    """What a server sends a seat whose choice it awaits: its view, its legal actions and a readable label for
    each, in the order of the actions, in the prompt's theme (spec 9.2, 9.4). A server always sends its
    ``theme`` and ``labels``, so the schema requires them; a loader still reads a prompt written before
    they existed, with Steam Noir's names and the labels made from the other fields.

    :ivar view: the seat's :class:`~darkempire.rules.views.PlayerView`.
    :ivar legal_actions: the seat's legal actions, in the engine's order; the
        client answers with one of them as an ``"action"`` message.
    :ivar theme: the theme whose names the labels use (Steam Noir unless the server chose another).
    :ivar labels: a readable label for each legal action, in the same order (``labels[i]`` is the menu entry of
        ``legal_actions[i]``, e.g. ``"Play Workers 4 #1 to the revolution"``): :func:`prompt_labels`, made
        from the other fields when not given. A message without labels (written before they existed) loads
        with them made.
    """

    view: PlayerView
    legal_actions: tuple[Action, ...]
    theme: Theme = attrs.field(default=Theme.STEAM_NOIR, metadata={ALWAYS_SENT: True})
    labels: tuple[str, ...] = attrs.field(
        default=attrs.Factory(_default_labels, takes_self=True), metadata={ALWAYS_SENT: True}
    )


def make_prompt(state: GameState, seat: int, theme: Theme = Theme.STEAM_NOIR) -> Prompt:
    """The prompt for ``seat`` now: :func:`~darkempire.rules.views.player_view` and
    :func:`~darkempire.rules.engine.legal_actions` (empty when the seat is not awaited), labelled in ``theme``.

    :raises WrongSeatError: if ``seat`` is not a seat of this game.
    :raises InvalidArgumentError: if ``theme`` is not a :class:`~darkempire.rules.cards.Theme`.
    """
    if type(theme) is not Theme:
        raise InvalidArgumentError(f"theme is a Theme ({', '.join(t.name for t in Theme)}), not {quote(theme)}")
    return Prompt(player_view(state, seat), tuple(engine.legal_actions(state, seat)), theme)


def check_prompt(prompt: Prompt) -> None:
    """Raise the error of :func:`~darkempire.validity.check_view` for the prompt's view, its path inside
    ``"view"``; the legal actions are only checked as values (by loading them); the labels must be
    :func:`prompt_labels`'s, so that a menu shows what its entry does.

    :raises InconsistentStateError, ~darkempire.wire.wire_errors.InvalidValueError: see :func:`~darkempire.validity.check_view`.
    :raises ~darkempire.wire.wire_errors.InvalidValueError: for labels that are not one per legal action, or
        one that is not its action's (its ``path`` is ``"labels[i]"``).
    """
    try:
        check_view(prompt.view)
    except SerializationError as error:
        raise type(error)(error.message, path="view" + (f".{error.path}" if error.path else "")) from None
    own = prompt_labels(prompt.view, prompt.legal_actions, prompt.theme)
    if len(prompt.labels) != len(own):
        raise InvalidValueError(f"one label per legal action: {len(own)}, not {len(prompt.labels)}", path="labels")
    for index, (label, real) in enumerate(zip(prompt.labels, own, strict=True)):
        if label != real:
            raise InvalidValueError(f"the label of legal_actions[{index}] is {quote(real)}, not {quote(label)}", path=f"labels[{index}]")
