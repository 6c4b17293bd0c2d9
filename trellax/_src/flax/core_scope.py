"""``flax.core.scope``: Flax's functional core, where a layer is a function of a :class:`Scope`
and arrays, and ``init``/``apply`` turn it into a pure function of rngs and variables.

:class:`Scope` here is ``trellax.nn``'s scope (the variables of one call, viewed at a path) with
Flax's core methods added: ``param``, ``variable``, ``child``, ``push`` with name reservation,
``make_rng(name='params')``. Rng keys are derived as ``trellax.nn`` derives them (Flax's SHA-1
folding of the path names and the per-scope call count), so a core function gives the same
parameters as under Flax. The filter algebra (``union_filters``, ...) is Flax's.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import hashlib
import typing
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

import trellax.numpy as jnp
from trellax import dtypes, random
from trellax._src.api.api import eval_shape
from trellax._src.flax import configurations
from trellax._src.flax.frozen_dict import FrozenDict, unfreeze
from trellax._src.flax.struct import PyTreeNode, field
from trellax._src.nn import errors
from trellax._src.nn import lazy as _lazy
from trellax._src.nn import partitioning as meta
from trellax._src.nn.module_util import Variable as Variable
from trellax._src.nn.scope import DenyList as DenyList
from trellax._src.nn.scope import Scope as _BaseScope
from trellax._src.nn.scope import _Root
from trellax._src.nn.scope import in_filter as _in_filter
from trellax._src.tree import tree_util

#: Flax's ``flax.core.scope.Array`` (an alias for annotations).
Array = Any
Filter = Any
CollectionFilter = Any
PRNGSequenceFilter = Any


def _fold_in_static(rng: Any, data: Sequence[str | int]) -> Any:
    """``rng`` folded once with the first four bytes of the SHA-1 of ``data`` (strings as
    UTF-8, ints as minimal big-endian bytes; with ``flax_fix_rng_separator`` a zero byte
    before each)."""
    if not data:
        return rng
    digest = hashlib.sha1(usedforsecurity=False)
    separate = bool(configurations.config._read("flax_fix_rng_separator"))
    for x in data:
        if separate:
            digest.update(b"\00")
        if isinstance(x, str):
            digest.update(x.encode("utf-8"))
        elif isinstance(x, int):
            digest.update(x.to_bytes((x.bit_length() + 7) // 8, "big"))
        else:
            raise ValueError(f"Expected int or string, got: {x}")
    return random.fold_in(rng, np.uint32(int.from_bytes(digest.digest()[:4], "big")))


class LazyRng(PyTreeNode):
    """A key and the static names and counts still to fold into it (``as_jax_rng``)."""

    rng: Any
    suffix: tuple[str | int, ...] = field(pytree_node=False)

    def as_jax_rng(self) -> Any:
        """The key with the suffix folded in."""
        return _fold_in_static(self.rng, self.suffix)

    @staticmethod
    def create(rng: Any, *suffix: str | int) -> LazyRng:
        """``rng`` (a key or a LazyRng) with ``suffix`` appended."""
        if isinstance(rng, LazyRng):
            return LazyRng(rng.rng, rng.suffix + suffix)
        return LazyRng(rng, suffix)

    def clear_suffix(self) -> LazyRng:
        """The bare key."""
        return LazyRng(self.rng, ())


# -- filters -------------------------------------------------------------------------------------


def in_filter(filter_like: Filter, col: str) -> bool:
    """Whether ``col`` matches the filter (``True``/``False``, a name, names, a DenyList)."""
    if not isinstance(filter_like, (bool, str, DenyList, typing.Collection)):
        raise errors.InvalidFilterError(filter_like)
    return _in_filter(filter_like, col)


def is_filter_empty(filter_like: Filter) -> bool:
    """Whether the filter matches no collection."""
    if isinstance(filter_like, str):
        return False
    if isinstance(filter_like, bool):
        return not filter_like
    if isinstance(filter_like, DenyList):
        return in_filter(filter_like.deny, "__flax_internal_stub__")
    if isinstance(filter_like, typing.Collection):
        return not filter_like
    raise errors.InvalidFilterError(filter_like)


def filter_to_set(x: Filter) -> set[str]:
    """The names a finite filter matches."""
    if x is True or isinstance(x, DenyList):
        raise ValueError("Infinite set")
    if x is False:
        return set()
    if isinstance(x, str):
        return {x}
    if isinstance(x, typing.Collection):
        return set(x)
    raise errors.InvalidFilterError(x)


def union_filters(a: Filter, b: Filter) -> Filter:
    """The filter matching what ``a`` or ``b`` matches."""
    if a is True or b is True:
        return True
    if isinstance(a, DenyList) and isinstance(b, DenyList):
        return DenyList(intersect_filters(a.deny, b.deny))
    if isinstance(b, DenyList):
        a, b = b, a
    if isinstance(a, DenyList):
        return DenyList(subtract_filters(a.deny, b))
    return filter_to_set(a) | filter_to_set(b)


def subtract_filters(a: Filter, b: Filter) -> Filter:
    """The filter matching what ``a`` matches and ``b`` does not."""
    if b is True:
        return False
    if a is True:
        return DenyList(b)
    if isinstance(a, DenyList) and isinstance(b, DenyList):
        return subtract_filters(b.deny, a.deny)
    if isinstance(a, DenyList):
        return DenyList(union_filters(a.deny, b))
    if isinstance(b, DenyList):
        return intersect_filters(a, b.deny)
    return filter_to_set(a) - filter_to_set(b)


def intersect_filters(a: Filter, b: Filter) -> Filter:
    """The filter matching what both ``a`` and ``b`` match."""
    if a is True:
        return b
    if b is True:
        return a
    if isinstance(a, DenyList) and isinstance(b, DenyList):
        return DenyList(union_filters(b.deny, a.deny))
    if isinstance(b, DenyList):
        a, b = b, a
    if isinstance(a, DenyList):
        return subtract_filters(b, a.deny)
    return filter_to_set(a) & filter_to_set(b)


def group_collections(xs: Mapping[str, Any], col_filters: Sequence[Filter]) -> tuple[Any, ...]:
    """``xs`` split by the filters in turn: each collection goes to the first that matches."""
    remaining = list(xs)
    groups = []
    for flt in col_filters:
        group = {
            col: tree_util.tree_map(lambda x: x, xs[col])
            for col in remaining
            if in_filter(flt, col)
        }
        remaining = [col for col in remaining if col not in group]
        groups.append(group)
    return tuple(groups)


# -- the scope -----------------------------------------------------------------------------------


class Scope(_BaseScope):
    """Flax's core scope: variables and rngs of one ``init``/``apply`` call at one path, with
    ``param``, ``variable``, ``child`` and ``push``; built as ``Scope(variables, rngs=None,
    name=None, mutable=False)`` too."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.reservations: collections.defaultdict[str, set[str | None]] = collections.defaultdict(
            set
        )
        self._invalid = False

    @property
    def name(self) -> str | None:
        """The last name of the path (None at the root)."""
        return self.path[-1] if self.path else None

    def rewound(self, rewind_rngs: bool = False) -> Scope:
        """The same variables at the same path with no names reserved."""
        scope = super().rewound(rewind_rngs)
        assert isinstance(scope, Scope)
        return scope

    @property
    def invalid(self) -> bool:
        """Whether this scope's ``apply`` has returned (using it then raises)."""
        return self._invalid

    def _check_valid(self) -> None:
        if self._invalid:
            raise errors.InvalidScopeError(self.name or "")

    @contextlib.contextmanager
    def temporary(self) -> Iterator[Scope]:
        """This scope, made invalid when the block ends."""
        try:
            yield self
        finally:
            self.invalidate()

    def invalidate(self) -> None:
        """Makes later uses of this scope raise."""
        self._invalid = True

    def mutable_variables(self) -> dict[str, Any]:
        """The mutable collections under this scope."""
        return {col: v for col, v in self.variables().items() if self.is_mutable_collection(col)}

    def name_reserved(self, name: str, col: str | None = None) -> bool:
        """Whether ``name`` is taken (for collection ``col``, or for a child when None)."""
        taken = self.reservations.get(name)
        return bool(taken) and (None in taken or col is None or col in taken)  # type: ignore[operator]

    def reserve(self, name: str, col: str | None = None) -> None:
        """Takes ``name`` for a child scope or (with ``col``) a variable."""
        if not isinstance(name, str):
            raise TypeError(f'The type of scope "{name}" should be string but it is {type(name)}')
        if self.name_reserved(name, col):
            raise ValueError(f'Duplicate use of scope name: "{name}"')
        self.reservations[name].add(col)

    def default_name(self, prefix: str) -> str:
        """The first ``prefix{i}`` not reserved."""
        i = 0
        while f"{prefix}{i}" in self.reservations:
            i += 1
        return f"{prefix}{i}"

    def push(self, name: str | None = None, prefix: str = "", reuse: bool = False) -> Scope:
        """The child scope ``name`` (reserved here unless ``reuse`` finds it reserved)."""
        self._check_valid()
        if name is None:
            name = self.default_name(prefix)
        if not reuse or name not in self.reservations:
            self.reserve(name)
        child = type(self)(self.root, (*self.path, name))
        child.debug_path = (*self.debug_path, name)
        return child

    def child(
        self,
        fn: Callable[..., Any],
        name: str | None = None,
        prefix: str | None = None,
        named_call: bool = True,
        **partial_kwargs: Any,
    ) -> Callable[..., Any]:
        """``fn`` with a child scope as its first argument (the same variables on each call)."""
        del named_call  # trellax has no profiler names
        if name is None:
            if prefix is None:
                prefix = fn.__name__ + "_" if hasattr(fn, "__name__") else ""
            name = self.default_name(prefix)
        scope = self.push(name)

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            return fn(scope.rewound(), *args, **dict(partial_kwargs, **kwargs))

        return wrapper

    def is_mutable_collection(self, col: str) -> bool:
        """Whether collection ``col`` may be written."""
        return bool(self.root.is_mutable(col))

    def has_rng(self, name: str) -> bool:
        """Whether the rng stream ``name`` was given."""
        return name in self.root.rngs

    def make_rng(self, name: str = "params", module_name: str | None = None) -> Any:
        """A new key of stream ``name`` (of ``params`` when ``name`` is absent)."""
        self._check_valid()
        return super().make_rng(name, self.name if module_name is None else module_name)

    def get_variable(self, col: str, name: str, default: Any = None) -> Any:
        """The variable ``col/name``, or ``default`` when absent."""
        return super().get_variable(col, name) if self.has_variable(col, name) else default

    def put_variable(self, col: str, name: str, value: Any) -> None:
        """Writes ``col/name`` (``col`` must be mutable)."""
        self._check_valid()
        super().put_variable(col, name, value)

    def variable(
        self,
        col: str,
        name: str,
        init_fn: Callable[..., Any] | None = None,
        *init_args: Any,
        unbox: bool = True,
        **init_kwargs: Any,
    ) -> Variable:
        """A handle on ``col/name``, made by ``init_fn(*init_args)`` when absent and mutable."""
        self.reserve(name, col)
        if not self.has_variable(col, name):
            if not self.is_mutable_collection(col) or init_fn is None:
                if self.is_collection_empty(col):
                    raise errors.ScopeCollectionNotFound(col, name, self.path_text)
                raise errors.ScopeVariableNotFoundError(name, col, self.path_text)
            self.put_variable(col, name, init_fn(*init_args, **init_kwargs))
        return Variable(self, col, name, unbox)

    def param(
        self,
        name: str,
        init_fn: Callable[..., Any],
        *init_args: Any,
        unbox: bool = True,
        **init_kwargs: Any,
    ) -> Any:
        """The parameter ``name``, made by ``init_fn(make_rng('params'), *init_args)`` when
        absent; a stored value whose shapes differ from the initializer's raises."""
        self.reserve(name, "params")
        if self.has_variable("params", name):
            value = self.get_variable("params", name)
            if unbox:
                value = meta.unbox(value)
            abstract = eval_shape(lambda k: init_fn(k, *init_args, **init_kwargs), random.key(0))
            for val, ref in zip(tree_util.tree_leaves(value), tree_util.tree_leaves(abstract)):
                if np.shape(val) != tuple(ref.shape):
                    raise errors.ScopeParamShapeError(
                        name, self.path_text, np.shape(val), tuple(ref.shape)
                    )
            return value
        if not self.is_mutable_collection("params"):
            if self.is_collection_empty("params"):
                raise errors.ScopeCollectionNotFound("params", name, self.path_text)
            raise errors.ScopeParamNotFoundError(name, self.path_text)
        value = init_fn(self.make_rng("params"), *init_args, **init_kwargs)
        self.put_variable("params", name, value)
        return meta.unbox(value) if unbox else value

    def has_flag(self, key: str) -> bool:
        """Whether the call's flags hold ``key``."""
        return key in self.root.flags

    def get_flag(self, key: str, default: Any = None) -> Any:
        """The call's flag ``key``."""
        return self.root.flags.get(key, default)


# -- init / apply --------------------------------------------------------------------------------


def _is_valid_rng(rng: Any) -> bool:
    """Whether ``rng`` is one key: a typed key of shape (), raw key data, or a LazyRng."""
    if isinstance(rng, LazyRng):
        return True
    if not isinstance(rng, (np.ndarray, jnp.ndarray)):
        return False
    if dtypes.issubdtype(rng.dtype, dtypes.prng_key):
        return rng.shape == ()
    return rng.shape == (2,) and rng.dtype == np.uint32


def _is_valid_rngs(rngs: Any) -> bool:
    if not isinstance(rngs, (dict, FrozenDict)):
        return False
    return all(isinstance(k, str) and _is_valid_rng(v) for k, v in rngs.items())


def _is_valid_variables(variables: Any) -> bool:
    if not isinstance(variables, (dict, FrozenDict)):
        return False
    for name, col in variables.items():
        if not isinstance(name, str) or not isinstance(col, (dict, FrozenDict)):
            return False
        if not all(isinstance(k, str) for k in col):
            return False
    return True


def bind(
    variables: Mapping[str, Any],
    rngs: Mapping[str, Any] | None = None,
    mutable: CollectionFilter = False,
    flags: Mapping[str, Any] | None = None,
) -> Scope:
    """A root scope over ``variables`` and ``rngs``."""
    if not _is_valid_variables(variables):
        raise errors.ApplyScopeInvalidVariablesTypeError()
    if rngs is not None and not _is_valid_rngs(rngs):
        raise errors.InvalidRngError(
            "rngs should be a dictionary mapping strings to `jax.PRNGKey`."
        )
    variables = {
        col: (unfreeze(v) if in_filter(mutable, col) else v) for col, v in variables.items()
    }
    flags = dict(flags or {})
    rngs = {k: (v.as_jax_rng() if isinstance(v, LazyRng) else v) for k, v in (rngs or {}).items()}
    root = _Root(variables, rngs, mutable, bool(flags.get("initializing", False)))
    root.flags = flags
    return Scope(root, ())


def apply(
    fn: Callable[..., Any],
    mutable: CollectionFilter = False,
    flags: Mapping[str, Any] | None = None,
) -> Callable[..., Any]:
    """``fn(scope, ...)`` as ``f(variables, ..., rngs=None)``: returns ``y``, or ``(y, mutated
    variables)`` when ``mutable`` is not False."""

    @functools.wraps(fn)
    def wrapper(variables: Mapping[str, Any], *args: Any, rngs: Any = None, **kwargs: Any) -> Any:
        if rngs is not None:
            if not _is_valid_rng(rngs) and not _is_valid_rngs(rngs):
                raise ValueError(
                    "The ``rngs`` argument passed to an apply function should be a "
                    "``jax.PRNGKey`` or a dictionary mapping strings to ``jax.PRNGKey``."
                )
            if not isinstance(rngs, (dict, FrozenDict)):
                rngs = {"params": rngs}
        params = variables.get("params") if isinstance(variables, Mapping) else None
        if isinstance(params, (dict, FrozenDict)) and "params" in params:
            raise errors.ApplyScopeInvalidVariablesStructureError(variables)
        with bind(variables, rngs=rngs, mutable=mutable, flags=flags).temporary() as root:
            y = fn(root, *args, **kwargs)
        if mutable is not False:
            return y, root.mutable_variables()
        return y

    return wrapper


def init(
    fn: Callable[..., Any], mutable: CollectionFilter = True, flags: Mapping[str, Any] | None = None
) -> Callable[..., Any]:
    """``fn(scope, ...)`` as ``f(rngs, ...) -> (y, variables)``."""

    @functools.wraps(fn)
    def wrapper(rngs: Any, *args: Any, **kwargs: Any) -> Any:
        if not _is_valid_rng(rngs) and not _is_valid_rngs(rngs):
            raise ValueError(
                "First argument passed to an init function should be a ``jax.PRNGKey`` or a "
                "dictionary mapping strings to ``jax.PRNGKey``."
            )
        if not isinstance(rngs, (dict, FrozenDict)):
            rngs = {"params": rngs}
        init_flags = {**(flags or {}), "initializing": True}
        return apply(fn, mutable=mutable, flags=init_flags)({}, *args, rngs=rngs, **kwargs)

    return wrapper


def lazy_init(
    fn: Callable[..., Any], mutable: CollectionFilter = True, flags: Mapping[str, Any] | None = None
) -> Callable[..., Any]:
    """``init`` returning only the variables, where inputs may be ``ShapeDtypeStruct``s (their
    values are never made; a variable depending on one raises ``LazyInitError``)."""

    def wrapper(rngs: Any, *args: Any, **kwargs: Any) -> Any:
        return _lazy.lazy_init(
            lambda r, *a, **k: init(fn, mutable, flags)(r, *a, **k)[1], rngs, args, kwargs
        )

    return wrapper
