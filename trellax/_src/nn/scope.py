"""Variable storage behind bound modules: one ``_Root`` per ``init``/``apply`` call, one
``Scope`` per module path.

Variables are plain nested dicts ``{collection: {submodule: {...: leaf}}}``. A mutable
collection is copied (its dicts, not its arrays) when the call starts, so the caller's dicts are
never changed; an immutable one is read in place.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np

from trellax._src.nn import errors
from trellax._src.nn._random import random as _random
from trellax._src.nn.flax_hooks import FLAX_HOOKS


class DenyList:
    """Every collection except those the filter ``deny`` selects (``init``'s default excludes
    ``intermediates``); equal when the denied filters are equal."""

    def __init__(self, deny: Any) -> None:
        if isinstance(deny, str):
            deny = frozenset([deny])
        elif not isinstance(deny, (bool, DenyList)):
            deny = frozenset(deny)
        self.deny: Any = deny

    def __repr__(self) -> str:
        deny = sorted(self.deny) if isinstance(self.deny, frozenset) else self.deny
        return f"DenyList({deny})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DenyList) and self.deny == other.deny

    def __hash__(self) -> int:
        return hash(("DenyList", self.deny))


#: What selects collections (or rng streams): True/False, a name, names, or a DenyList.
Filter = bool | str | Iterable[str] | DenyList
CollectionFilter = Filter
PRNGSequenceFilter = Filter


def _predicate(spec: Any) -> Callable[[str], bool]:
    if isinstance(spec, _Pred):
        return spec.fn
    if spec is True:
        return lambda col: True
    if spec is False or spec is None:
        return lambda col: False
    if isinstance(spec, DenyList):
        denied = _predicate(spec.deny)
        return lambda col: not denied(col)
    if isinstance(spec, str):
        return lambda col: col == spec
    try:
        allowed = frozenset(spec)
    except TypeError:
        raise TypeError(
            f"mutable must be a bool, a collection name, a list of names or a DenyList, got {spec!r}"
        ) from None
    return lambda col: col in allowed


class _Pred:
    """A collection filter given as a predicate (the lifted transforms build these); ``key``
    identifies it by value (``nn.jit`` reuses a trace for equal keys)."""

    def __init__(self, fn: Callable[[str], bool], key: Any = None) -> None:
        self.fn = fn
        self.key = key


def filter_key(spec: Any) -> Any:
    """A hashable value that identifies the collection filter ``spec`` (equal for filters that
    select the same collections, as far as their form tells)."""
    if isinstance(spec, _Pred):
        return ("pred", id(spec) if spec.key is None else spec.key)
    if spec is True or spec is False or spec is None:
        return bool(spec)
    if isinstance(spec, str):
        return spec
    if isinstance(spec, DenyList):
        return ("deny", filter_key(spec.deny))
    try:
        return frozenset(spec)
    except TypeError:
        return ("id", id(spec))


def in_filter(spec: Any, col: str) -> bool:
    """Whether collection (or rng stream) ``col`` matches the filter ``spec``: ``True``,
    ``False``, a name, a collection of names or a :class:`DenyList` (Flax's ``in_filter``)."""
    return _predicate(spec)(col)


def _copy_dicts(tree: Any) -> Any:
    if isinstance(tree, Mapping):
        return {k: _copy_dicts(v) for k, v in tree.items()}
    return tree


class _Root:
    """The state of one ``init``/``apply`` call, shared by all scopes of that call."""

    def __init__(
        self,
        variables: Mapping[str, Any],
        rngs: Mapping[str, Any],
        mutable: Any,
        initializing: bool,
        rng_counters: dict[tuple[tuple[str, ...], str], int] | None = None,
        rng_offset: int = 0,
    ) -> None:
        if not isinstance(variables, Mapping):
            raise TypeError(
                "Expected the first argument passed to an apply function to be a dictionary "
                f"containing a 'params' key, got {type(variables).__name__}."
            )
        self.is_mutable = _predicate(mutable)
        self.mutable_key = filter_key(mutable)
        self.variables: dict[str, Any] = {
            col: (_copy_dicts(tree) if self.is_mutable(col) else tree)
            for col, tree in variables.items()
        }
        self.rngs = dict(rngs)
        # shared with the roots of lifted transforms, whose scopes continue the same counts
        self.rng_counters = {} if rng_counters is None else rng_counters
        # the path names before this index are not folded into keys (``nn.jit`` forks its keys)
        self.rng_offset = rng_offset
        self.initializing = initializing
        #: the filter ``mutable`` as given, and the call's flags (Flax's core scope shows both)
        self.mutable_filter = mutable
        self.flags: dict[str, Any] = {}
        #: id of a module adopted in this call -> (that module, its adopted clone): a module
        #: held by several fields is adopted once, where it is met first (as Flax shares it)
        self.adopted: dict[int, tuple[Any, Any]] = {}

    def mutable_variables(self) -> dict[str, Any]:
        return {col: tree for col, tree in self.variables.items() if self.is_mutable(col)}


class Scope:
    """A module's window on the variables: ``root.variables[col][*path]``.

    Also built as Flax's core scope, ``Scope(variables, rngs=None, name=None, mutable=False)``:
    a root scope over ``variables`` that modules can be bound to with ``parent=scope``."""

    def __init__(
        self,
        root: Any = None,
        *args: Any,
        rngs: Mapping[str, Any] | None = None,
        name: str | None = None,
        mutable: Any = False,
        parent: Any = None,
        path: Any = None,
        variables: Mapping[str, Any] | None = None,
    ) -> None:
        if isinstance(root, _Root):  # trellax's form: Scope(root, path)
            path = args[0] if args else (path or ())
        else:  # Flax's form: Scope(variables, rngs=None, name=None, mutable=False, parent=None)
            if variables is not None:
                root = variables
            rest = list(args)
            if rest:
                rngs = rest.pop(0)
            if rest:
                name = rest.pop(0)
            if rest:
                mutable = rest.pop(0)
            root = _Root(root if root is not None else {}, rngs or {}, mutable, False)
            path = path or ()
        del name, parent  # Flax's scope names and parents are its paths here
        self.root: _Root = root
        self.path = tuple(path)
        #: the path with the lifted transforms it passed through (``('b', 'remat(c)')``): a
        #: transformed module's inner scope wraps its last name in the transform's name
        self.debug_path: tuple[str, ...] = self.path
        # the paths of other scopes of this root that a lifted transform carries along with
        # this one (modules bound outside the transformed module that it uses)
        self.lifted: tuple[tuple[str, ...], ...] = ()

    def variables(self) -> dict[str, Any]:
        """This scope's variables by collection (Flax's ``Scope.variables()``)."""
        out = {}
        for col in self.root.variables:
            node = self._node(col)
            if node:
                out[col] = node
        return out

    def rewound(self, rewind_rngs: bool = False) -> Scope:
        """The same variables at the same path; ``rewind_rngs`` restarts the rng counts."""
        if not rewind_rngs:
            return type(self)(self.root, self.path)
        root = copy.copy(self.root)
        root.rng_counters = {}
        return type(self)(root, self.path)

    @property
    def mutable(self) -> Any:
        """The mutability filter of this call (Flax's ``Scope.mutable``)."""
        return self.root.mutable_filter

    @property
    def rngs(self) -> dict[str, Any]:
        """The rng streams of this call by name (Flax's ``Scope.rngs``; nnx's Linen bridge reads
        its keys and draws from each with ``make_rng``)."""
        return self.root.rngs

    @property
    def path_text(self) -> str:
        return "/" + "/".join(self.path)

    def push(self, name: str) -> Scope:
        child = type(self)(self.root, (*self.path, name))
        child.debug_path = (*self.debug_path, name)
        return child

    def _node(self, col: str) -> Mapping[str, Any] | None:
        node = self.root.variables.get(col)
        for p in self.path:
            if not isinstance(node, Mapping):
                return None
            node = node.get(p)
        return node if isinstance(node, Mapping) else None

    def collection_view(self, col: str) -> Mapping[str, Any]:
        return self._node(col) or {}

    def is_collection_empty(self, col: str) -> bool:
        return not self.root.variables.get(col)

    def has_variable(self, col: str, name: str) -> bool:
        node = self._node(col)
        return node is not None and name in node

    def get_variable(self, col: str, name: str) -> Any:
        node = self._node(col)
        if node is None or name not in node:
            if self.is_collection_empty(col):
                raise errors.ScopeCollectionNotFound(col, name, self.path_text)
            raise errors.ScopeVariableNotFoundError(name, col, self.path_text)
        return node[name]

    def put_variable(self, col: str, name: str, value: Any) -> None:
        if not self.root.is_mutable(col):
            raise errors.ModifyScopeVariableError(col, name, self.path_text)
        node = self.root.variables.setdefault(col, {})
        for p in self.path:
            node = node.setdefault(p, {})
        node[name] = value

    def make_rng(self, stream: str, module_name: str | None) -> Any:
        """A fresh key per call, derived as Flax derives it, so that the same key gives Flax's
        parameters, dropout masks and ``make_rng`` keys: the stream's key folded once with the
        first four bytes (big-endian) of the SHA-1 of this path's names followed by the
        per-scope, per-stream call count (1, 2, ...) as minimal big-endian bytes (each preceded
        by a zero byte when Flax's ``flax_fix_rng_separator`` flag is set)."""
        if stream not in self.root.rngs:
            if "params" not in self.root.rngs:  # Flax falls back on the params stream
                raise errors.InvalidRngError(f'{module_name} needs PRNG for "{stream}"')
            stream = "params"
        slot = (self.path, stream)
        count = self.root.rng_counters.get(slot, 0) + 1
        self.root.rng_counters[slot] = count
        digest = hashlib.sha1(usedforsecurity=False)
        # Flax's flax_fix_rng_separator flag (set through trellax.flax.config): a zero byte
        # before each name and before the count, so that ("ab", "cdef") and ("abc", "def")
        # no longer hash alike
        sep = (
            b"\00"
            if "fix_rng_separator" in FLAX_HOOKS and FLAX_HOOKS["fix_rng_separator"]()
            else b""
        )
        for name in self.path[self.root.rng_offset :]:
            digest.update(sep + name.encode("utf-8"))
        digest.update(sep + count.to_bytes((count.bit_length() + 7) // 8, "big"))
        data = np.uint32(int.from_bytes(digest.digest()[:4], "big"))
        return _random().fold_in(self.root.rngs[stream], data)
