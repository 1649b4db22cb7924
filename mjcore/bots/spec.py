"""Bot specifications: what ``simulate(bots=...)`` accepts, resolved into picklable recipes.

A seat's bot may be given as

* a registered name (``"greedy"``, ``"random"``, ``"expert"``, ``"mc"``), optionally with
  keyword settings after a colon: ``"mc:ms=50"``, ``"mc:rollouts=200"``,
  ``"mc:rollouts=100&candidates=4"`` (integers or decimals, ``&`` between settings);
* ``"package.module:Name"`` — imported; ``Name`` is any of the forms below;
* ``"exec:COMMAND"`` — an agent program speaking the agent protocol (docs/agents.md,
  :mod:`mjcore.agents.exec`), e.g. ``"exec:./mybot:timeout_ms=200"``;
* a bot class (called with the seat's seed if its constructor takes an argument, else with none);
* a factory, any callable returning a bot (called the same way);
* a bot instance (anything with ``act(view, legal)``): each hand plays on a ``copy.deepcopy``
  of it, so hands stay independent and the statistics do not depend on how the run is split;
  a :class:`~mjcore.bots.base.BaseBot` copy gets the hand's seat seed as its ``rng``.

A bot with ``act_fast(game, seat, legal)`` is driven through it (no view is built);
otherwise ``act(game.view(seat), legal)`` is called.

With ``workers > 1`` the recipes travel to worker processes with :mod:`pickle`: classes and
factories must be defined at module level of an importable module (not a lambda, a local
function or code typed into an interactive session) and instances must pickle. A Dask cluster
uses cloudpickle, which also takes lambdas; a real cluster's workers must be able to import
the bot's module.
"""

from __future__ import annotations

import copy
import importlib
import inspect
import pickle
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, partial
from typing import TYPE_CHECKING, Any

from ..errors import InvalidOptionError, clip

if TYPE_CHECKING:
    from ..engine.actions import Action
    from ..engine.game import Game

BotSpec = Any  # str | Bot | type[Bot] | Callable[[int], Bot]
"""A name, ``module:Name``, a bot class, a factory or a bot instance."""

Decide = Callable[["Game", int, Sequence["Action"]], Any]


@cache
def _bot_class(name: str) -> Callable[..., Any]:
    """The class of the registered bot ``name`` (a factory raising InvalidOptionError for an
    unknown name), found once: the registry imports every bot module on first use, and the
    simulator makes a bot for every seat of every hand."""
    from .registry import bot_classes, make_bot

    return bot_classes().get(name) or partial(make_bot, name)


@dataclass(frozen=True)
class SeatBot:
    """A resolved bot recipe: ``make(seed)`` builds a fresh bot for one hand."""

    label: str
    kind: str  # "name" | "param" | "class" | "factory" | "instance" | "exec"
    source: Any
    takes_seed: bool = True

    def make(self, seed: Any) -> Any:
        """A fresh bot; ``seed`` is an int (or anything ``numpy.random.default_rng`` takes)."""
        if self.kind == "name":
            return _bot_class(self.source)(seed)
        if self.kind == "param":  # (name, ((key, value), ...)) of a registered bot
            from .registry import bot_classes as _registry

            name, params = self.source
            return _registry()[name](seed, **dict(params))
        if self.kind == "exec":  # an agent program (mjcore.agents.exec.ExecSpec)
            return self.source.bot(seed, self.label)
        if self.kind == "instance":
            bot = copy.deepcopy(self.source)
            from .base import BaseBot

            if isinstance(bot, BaseBot):
                bot.reseed(seed)  # the stream of default_rng(seed)
            return bot
        return self.source(seed) if self.takes_seed else self.source()


def decider(bot: Any, seat_view: Callable[[Game, int], Any] | None = None) -> Decide:
    """The bot's decision function ``(game, seat, legal) -> action`` (the fast path if any)."""
    fast = getattr(bot, "act_fast", None)
    if callable(fast):
        return fast  # type: ignore[no-any-return]
    act = bot.act
    return lambda game, seat, legal: act(game.view(seat), legal)


def resolve_bots(spec: Any, players: int) -> list[SeatBot]:
    """One :class:`SeatBot` per seat from a spec for every seat or a sequence of one per seat.

    Raises :class:`~mjcore.errors.InvalidOptionError` naming ``bots`` for anything else
    (None, a wrong count, an unknown name, an object that is no bot, a factory that does
    not return one).
    """
    if spec is None or isinstance(spec, (bytes, dict, set, frozenset)):
        raise InvalidOptionError(f"bots: {_WHAT}, got {_short(spec)}")
    if isinstance(spec, str) and "," in spec:
        spec = [s.strip() for s in spec.split(",")]
    if isinstance(spec, (list, tuple)):
        if len(spec) != players:
            raise InvalidOptionError(
                f"bots: expected one bot for every seat or {players} (one per seat), "
                f"got {len(spec)}: {_short(spec)}"
            )
        seats = [_resolve_one(s) for s in spec]
    else:
        seats = [_resolve_one(spec)] * players
    return _unique_labels(seats)


def check_picklable(seats: Sequence[SeatBot], where: str, dumps: Callable[[Any], bytes]) -> None:
    """Fail early, naming the bot, when a recipe cannot be sent to ``where``."""
    for seat, sb in enumerate(seats):
        try:
            dumps(sb)
        except Exception as exc:  # pickle raises several types (PicklingError, AttributeError …)
            raise InvalidOptionError(
                f"bots: seat {seat}'s bot {sb.label!r} cannot be sent to {where} "
                f"({type(exc).__name__}: {exc}). Define bot classes and factories at module "
                "level in an importable module (not a lambda, a local function or an "
                "interactive session), or run with workers=1"
            ) from None


def pickle_dumps(obj: Any) -> bytes:
    return pickle.dumps(obj)


def load_spec(text: str) -> Any:
    """``"package.module:Name"`` → the object it names (a class, factory or instance)."""
    module_name, _, attr = text.partition(":")
    if not module_name or not attr:
        raise InvalidOptionError(f"bots: expected module:Name, got {clip(text)}")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise InvalidOptionError(f"bots: cannot import {module_name!r} ({exc})") from None
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise InvalidOptionError(f"bots: module {module_name!r} has no {attr!r}")
        obj = getattr(obj, part)
    return obj


# ---- internals -------------------------------------------------------------------------------
_WHAT = (
    "expected a bot name (greedy, random, expert, mc, or e.g. mc:ms=50), 'module:Name', "
    "a Bot class, a factory or a Bot instance — for every seat or one per seat"
)


def _resolve_one(spec: Any) -> SeatBot:
    if isinstance(spec, str) and spec.startswith("exec:"):
        from ..agents.exec import parse_exec

        parsed = parse_exec(spec)
        return SeatBot(parsed.label, "exec", parsed)
    if isinstance(spec, str):
        from .registry import BOTS

        if ":" in spec and spec.partition(":")[0] in BOTS:
            return _resolve_param(spec)
        if ":" in spec:
            return _resolve_object(load_spec(spec), spec)

        if spec not in BOTS:
            raise InvalidOptionError(f"unknown bot {clip(spec)}; known bots: {', '.join(BOTS)}")
        return SeatBot(spec, "name", spec)
    if spec is None or isinstance(spec, (bytes, int, float, dict, list, tuple)):
        raise InvalidOptionError(f"bots: {_WHAT}, got {_short(spec)}")
    return _resolve_object(spec, None)


def _resolve_param(text: str) -> SeatBot:
    """``"mc:ms=50"``: a registered bot with keyword settings (checked by building one)."""
    name, _, rest = text.partition(":")
    params = []
    for item in rest.split("&"):
        key, eq, raw = item.partition("=")
        key = key.strip()
        if not eq or not key.isidentifier():
            raise InvalidOptionError(f"bots: expected {name}:key=value, got {clip(text)}")
        try:
            value: int | float = int(raw)
        except ValueError:
            try:
                value = float(raw)
            except ValueError:
                raise InvalidOptionError(
                    f"bots: {clip(text)}: {key} must be a number, got {clip(raw)}"
                ) from None
        params.append((key, value))
    sb = SeatBot(text, "param", (name, tuple(params)))
    try:
        sb.make(0)
    except (TypeError, ValueError) as exc:
        raise InvalidOptionError(f"bots: {clip(text)}: {exc}") from None
    return sb


def _resolve_object(obj: Any, text: str | None) -> SeatBot:
    shown = text or _short(obj)
    if isinstance(obj, type):
        sb = SeatBot(_class_label(obj), "class", obj, _takes_one_argument(obj))
    elif callable(getattr(obj, "act", None)):
        sb = SeatBot(_class_label(type(obj)), "instance", obj)
    elif callable(obj):
        sb = SeatBot(_factory_label(obj), "factory", obj, _takes_one_argument(obj))
    else:
        raise InvalidOptionError(f"bots: {shown} is not a bot ({_WHAT})")
    try:
        bot = sb.make(0)
    except InvalidOptionError:
        raise
    except Exception as exc:
        raise InvalidOptionError(
            f"bots: building a bot from {shown} failed: {type(exc).__name__}: {exc}"
        ) from None
    if not callable(getattr(bot, "act", None)):
        raise InvalidOptionError(
            f"bots: {shown} made {_short(bot)}, which has no act(view, legal) method"
        )
    return sb


def _class_label(cls: type) -> str:
    own = cls.__dict__.get("name")
    return own if isinstance(own, str) and own else cls.__name__


def _factory_label(fn: Any) -> str:
    inner = getattr(fn, "func", fn)  # functools.partial
    name = getattr(inner, "__name__", type(inner).__name__)
    return "lambda" if name == "<lambda>" else name


def _takes_one_argument(fn: Any) -> bool:
    try:
        inspect.signature(fn).bind(0)
    except TypeError:
        return False
    except ValueError:  # no signature (some builtins): assume it takes the seed
        return True
    return True


def _unique_labels(seats: list[SeatBot]) -> list[SeatBot]:
    """Different recipes that share a label get ``label#2``, ``label#3`` … (per-bot rows);
    a registered name keeps its plain label."""
    out: list[SeatBot] = list(seats)
    owners: dict[str, Any] = {}
    order = sorted(range(len(seats)), key=lambda i: _identity(seats[i])[0] != "name")
    for i in order:
        sb = seats[i]
        key, label, n = _identity(sb), sb.label, 1
        while label in owners and owners[label] != key:
            n += 1
            label = f"{sb.label}#{n}"
        owners[label] = key
        if label != sb.label:
            out[i] = SeatBot(label, sb.kind, sb.source, sb.takes_seed)
    return out


def _identity(sb: SeatBot) -> tuple[str, Any]:
    """Recipes that build the same bots: a name and its registered class are one."""
    from .registry import bot_classes as _registry

    if sb.kind == "name" or (sb.kind == "class" and _registry().get(sb.label) is sb.source):
        return ("name", sb.label)
    if sb.kind in ("param", "exec"):
        return (sb.kind, sb.source)
    return (sb.kind, id(sb.source))


def _short(obj: Any, limit: int = 80) -> str:
    return clip(obj, limit)


def make_bots(spec: Any, players: int, seeds: Sequence[Any] | None = None) -> list[Any]:
    """One bot per seat from any spec :func:`resolve_bots` accepts."""
    seeds = list(seeds) if seeds is not None else [None] * players
    return [sb.make(s) for sb, s in zip(resolve_bots(spec, players), seeds, strict=False)]
