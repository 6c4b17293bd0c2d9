"""``Module``: Flax linen's dataclass modules on top of :mod:`trellax._src.nn.scope`.

A module is a dataclass of hyper-parameters. ``init``/``apply`` clone it *bound* to a fresh
scope; a bound module creates submodules and variables at paths below its own:

- inside an ``@compact`` method a submodule is named when it is constructed: ``name=`` or
  ``ClassName_k`` (``Dense_0``, ``Dense_1``; the counters restart on every call, so calling a
  compact module twice shares its parameters);
- inside ``setup`` it is named when it is assigned to an attribute (``self.dense``; lists give
  ``layers_0``, ``layers_1``; dicts ``name_key``);
- a module created outside any module and passed as a dataclass field (``Sequential``'s
  ``layers``) is adopted under the field's name.

Methods a subclass defines are wrapped so that a bound module runs ``setup`` lazily (once, on
first use) and is the parent of modules created while it runs.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from trellax._src.core import traceback_filter
from trellax._src.nn import errors
from trellax._src.nn import lazy as _lazy
from trellax._src.nn import partitioning as meta
from trellax._src.nn.flax_hooks import FLAX_HOOKS
from trellax._src.nn.intercept import (
    InterceptorContext,
    _capturer,
    _interceptors,
    _run_interceptors,
    intercept_methods,
)
from trellax._src.nn.module_util import (
    _UNSPECIFIED,
    SetupState,
    Variable,
    _add,
    _boxes,
    _check_param_shape,
    _freeze_attr,
    _get_local_method_names,
    _get_suffix_value_pairs,
    _returns,
    _takes_module,
    _unbound_only_hash,
    _zeros_like,
    merge_param,
)
from trellax._src.nn.scope import DenyList, Scope, _Pred, _predicate, _Root, filter_key
from trellax._src.tree import tree_util

__all__ = [
    "FLAX_HOOKS",
    "InterceptorContext",
    "Module",
    "SetupState",
    "Variable",
    "_boxes",
    "_freeze_attr",
    "_get_local_method_names",
    "_get_suffix_value_pairs",
    "compact",
    "compact_name_scope",
    "intercept_methods",
    "merge_param",
    "nowrap",
    "share_scope",
]

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:

    def dataclass_transform(**kwargs: Any) -> Callable[[Any], Any]:
        return lambda cls: cls


F = TypeVar("F", bound=Callable[..., Any])
M = TypeVar("M", bound="Module")


_LOCAL = threading.local()
_INIT_MUTABLE = DenyList("intermediates")
# filled by ``trellax._src.nn.summary`` (which builds on this module): tabulate, module_paths
_SUMMARY: dict[str, Callable[..., Any]] = {}


def _stack() -> list[Module]:
    s: list[Module] | None = getattr(_LOCAL, "stack", None)
    if s is None:
        s = _LOCAL.stack = []
    return s


class _DynamicContext:
    """Flax's ``nn.module._context``: ``module_stack`` is ``[None, *modules being run]``."""

    @property
    def module_stack(self) -> list[Module | None]:
        return [None, *_stack()]


_context = _DynamicContext()


def compact(fun: F) -> F:
    """Marks the one method of a module that may create submodules and variables inline."""
    fun.compact = True  # type: ignore[attr-defined]
    return fun


def nowrap(fun: F) -> F:
    """Marks a helper method that must not be wrapped (it runs no setup and names nothing)."""
    fun.nowrap = True  # type: ignore[attr-defined]
    return fun


def _fields(m: Any) -> tuple[dataclasses.Field[Any], ...]:
    return dataclasses.fields(m)


class _State:
    __slots__ = (
        "adopting",
        "autoname",
        "children",
        "in_compact",
        "in_setup",
        "reserved",
        "scope",
        "setup_called",
        "setup_names",
    )

    def __init__(self) -> None:
        self.scope: Scope | None = None
        self.setup_called = SetupState.NEW
        self.adopting = False  # cloning the modules of its fields as its children
        self.in_setup = False
        self.in_compact = False
        self.autoname: dict[str, int] = {}
        self.reserved: set[str] = set()
        self.setup_names: set[str] = set()
        self.children: dict[str, Module] = {}


_NOT_WRAPPED = frozenset({"setup", "__post_init__"})


def _wrap_method(fn: Callable[..., Any]) -> Callable[..., Any]:
    is_compact = getattr(fn, "compact", False)

    @functools.wraps(fn)
    def wrapped(self: Module, *args: Any, **kwargs: Any) -> Any:
        st: _State | None = self.__dict__.get("_state")
        if st is None or st.scope is None:
            if is_compact:
                raise errors.CallCompactUnboundModuleError()
            if _interceptors():
                return _run_interceptors(fn, self, args, kwargs)
            return fn(self, *args, **kwargs)
        self._try_setup()
        reset = is_compact and not st.in_compact
        if reset:
            st.in_compact = True
            st.autoname.clear()
            st.reserved = set(st.setup_names)
        stack = _stack()
        stack.append(self)
        try:
            if _interceptors():
                return _run_interceptors(fn, self, args, kwargs)
            return fn(self, *args, **kwargs)
        finally:
            stack.pop()
            if reset:
                st.in_compact = False

    wrapped.__wrapped_method__ = True  # type: ignore[attr-defined]
    return wrapped


def _parent_and_name_last(cls: type) -> None:
    """Moves the keyword-only fields ``parent`` and ``name`` after the class's own fields in
    its dataclass field table, as Flax orders them (``dataclasses.fields`` then lists a
    subclass's fields first; the generated ``__init__`` is unchanged, both being keyword-only).
    """
    table: dict[str, dataclasses.Field[Any]] = cls.__dict__["__dataclass_fields__"]
    for key in ("parent", "name"):
        table[key] = table.pop(key)


@dataclass_transform(field_specifiers=(dataclasses.field,))
@dataclasses.dataclass(repr=False, eq=True, unsafe_hash=True)
class Module:
    """Base class of layers: subclasses are dataclasses; see the module docstring.

    >>> import trellax.numpy as tnp, trellax.nn as nn
    >>> class MLP(nn.Module):
    ...     features: int
    ...     @nn.compact
    ...     def __call__(self, x):
    ...         return nn.Dense(self.features)(nn.relu(nn.Dense(8)(x)))
    """

    parent: Any = dataclasses.field(default=_UNSPECIFIED, kw_only=True, repr=False, compare=False)
    name: str | None = dataclasses.field(default=None, kw_only=True)
    if TYPE_CHECKING:  # the names of the methods marked with :func:`compact_name_scope`, set
        # per subclass (not annotated at run time: Flax's dataclass fields are parent, name only)
        _compact_name_scope_methods: ClassVar[tuple[str, ...]]

    _compact_name_scope_methods = ()

    def __init_subclass__(cls, kw_only: bool = False, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields = inspect.get_annotations(cls)  # a field's default is no method
        for k in _get_local_method_names(cls, exclude=fields):
            v = cls.__dict__[k]
            if (
                not inspect.isfunction(v)
                or k in _NOT_WRAPPED
                or (k.startswith("__") and k != "__call__")  # private helpers too, as Flax
                or getattr(v, "nowrap", False)
                or getattr(v, "__wrapped_method__", False)
            ):
                continue
            setattr(cls, k, _wrap_method(v))
        # a class that defines __hash__ keeps it (as a dataclass with eq and its own hash)
        own_hash = "__hash__" in cls.__dict__
        dataclasses.dataclass(cls, repr=False, eq=True, unsafe_hash=not own_hash, kw_only=kw_only)
        _parent_and_name_last(cls)
        cls.__hash__ = _unbound_only_hash(cls.__hash__)  # type: ignore[method-assign,assignment]
        cls._compact_name_scope_methods = tuple(
            k for k in dir(cls) if getattr(getattr(cls, k, None), "compact_name_scope", False)
        )

    # -- construction and naming ------------------------------------------------------------------

    def __post_init__(self) -> None:
        st = _State()
        object.__setattr__(self, "_state", st)
        parent = self.parent
        if parent is _UNSPECIFIED:
            stack = _stack()
            parent = stack[-1] if stack else None
            object.__setattr__(self, "parent", parent)
        if isinstance(parent, Module) and parent.__dict__.get("_state") is not None:
            pst = parent._state
            if pst.scope is not None and not (pst.in_setup or pst.in_compact or pst.adopting):
                raise errors.AssignSubModuleError(type(self).__name__)
        if isinstance(parent, Scope):
            st.scope = parent
            self._adopt_fields()  # bound now: adopt the field modules at once, as Flax
        elif (
            isinstance(parent, Module)
            and parent._state.scope is not None
            and not (parent._state.in_setup and self.name is None)  # else named by setup
        ):
            self._register(parent)

    def _register(self, parent: Module) -> None:
        pst = parent._state
        assert pst.scope is not None
        name = self.name
        if name is None:
            cls = type(self).__name__
            k = pst.autoname.get(cls, 0)
            while f"{cls}_{k}" in pst.reserved:
                k += 1
            pst.autoname[cls] = k + 1
            name = f"{cls}_{k}"
            object.__setattr__(self, "name", name)
        elif name in pst.reserved:
            raise errors.NameInUseError("submodule", name, type(parent).__name__)
        pst.reserved.update((name, _reservation(name, None)))
        pst.children[name] = self
        self._state.scope = pst.scope.push(name)
        self._adopt_fields()  # bound now: adopt the field modules at once, as Flax

    def __setattr__(self, name: str, value: Any) -> None:
        st: _State | None = self.__dict__.get("_state")
        if st is None or st.scope is None:  # the dataclass __init__, or a module not yet bound
            object.__setattr__(self, name, value)
        elif st.in_setup:
            value = _freeze_attr(self._adopt_outside(value))
            self._name_setup_children(value, name)
            object.__setattr__(self, name, value)
        else:
            raise errors.SetAttributeFrozenModuleError(type(self).__name__, name, value)

    def _name_setup_children(self, value: Any, prefix: str) -> None:
        for suffix, v in _get_suffix_value_pairs(value):
            if isinstance(v, Module) and v.parent is self and v._state.scope is None:
                object.__setattr__(v, "name", prefix + suffix)
                v._register(self)

    def _adopt_outside(self, value: Any) -> Any:
        """``value`` with the modules made outside any module (no parent) replaced by unnamed
        copies whose parent is self, which ``setup`` then names by attribute (as Flax adopts)."""
        if isinstance(value, Module):
            if value._state.scope is None and value.parent is None:
                return value.clone(parent=self, name=None)
            return value
        if isinstance(value, list | tuple) and not hasattr(value, "_fields"):
            items = [self._adopt_outside(v) for v in value]
            if all(a is b for a, b in zip(items, value)):
                return value
            return type(value)(items)
        if isinstance(value, dict):
            new = {k: self._adopt_outside(v) for k, v in value.items()}
            return value if all(new[k] is value[k] for k in value) else new
        return value

    def _adopt_fields(self) -> None:
        st = self._state
        st.adopting = True
        try:
            for f in _fields(self):
                if f.name not in ("parent", "name") and f.name in self.__dict__:
                    old = getattr(self, f.name)
                    new = self._adopt(old, f.name)
                    if new is not old:
                        object.__setattr__(self, f.name, new)
        finally:
            st.adopting = False

    def _adopt(self, value: Any, prefix: str) -> Any:
        """Clones the unbound modules found in a field value that have no parent or no name
        (made in a parent's ``setup`` and handed over) as children of self, as Flax adopts."""
        if isinstance(value, Module):
            if value._state.scope is None and (value.parent is None or value.name is None):
                scope = self._state.scope
                assert scope is not None
                seen = scope.root.adopted.get(id(value))
                if seen is not None and seen[0] is value:
                    return seen[1]
                keep = getattr(type(self), "preserve_adopted_names", None)
                if keep is None:  # the class's setting, else Flax's flag
                    keep = (
                        "preserve_adopted_names" in FLAX_HOOKS
                        and FLAX_HOOKS["preserve_adopted_names"]()
                    )
                keep = keep is True
                name = value.name if keep and value.parent is None and value.name else prefix
                adopted = value.clone(parent=self, name=name)
                scope.root.adopted[id(value)] = (value, adopted)
                return adopted
            return value
        if isinstance(value, list | tuple):
            items = [self._adopt(v, f"{prefix}_{i}") for i, v in enumerate(value)]
            if all(a is b for a, b in zip(items, value)):
                return value
            return type(value)(items) if isinstance(value, list) else tuple(items)
        if isinstance(value, dict):  # adopted in key order (a shared module: its first key)
            done = {k: self._adopt(value[k], f"{prefix}_{k}") for k in _sorted_keys(value)}
            new = {k: done[k] for k in value}
            return value if all(new[k] is value[k] for k in value) else new
        return value

    def _try_setup(self) -> None:
        st = self._state
        if st.setup_called != SetupState.NEW or st.scope is None:
            return
        st.setup_called = SetupState.DONE
        self._adopt_fields()
        st.in_setup = True
        stack = _stack()
        stack.append(self)
        try:
            if _interceptors() and type(self).setup is not Module.setup:
                _run_interceptors(type(self).setup, self, (), {})
            else:
                self.setup()
            scopes = {
                k: CompactNameScope(getattr(type(self), k).inner_fun, _returns(self), name=k)
                for k in type(self)._compact_name_scope_methods
            }
            object.__setattr__(self, "_compact_name_scope_modules", scopes)
        finally:
            stack.pop()
            st.in_setup = False
            st.setup_names = set(st.reserved)

    def __getattr__(self, name: str) -> Any:
        st: _State | None = self.__dict__.get("_state")
        if (
            st is not None
            and st.setup_called == SetupState.NEW
            and st.scope is not None
            and not name.startswith("__")
        ):
            self._try_setup()
            return getattr(self, name)
        for klass in type(self).__mro__:  # a property or other descriptor that failed
            if name in klass.__dict__:
                if hasattr(type(klass.__dict__[name]), "__get__"):
                    raise errors.DescriptorAttributeError()
                break
        msg = f'"{type(self).__name__}" object has no attribute "{name}".'
        if st is None or st.scope is None:
            msg += (
                f" If \"{name}\" is defined in '.setup()', remember these fields are only "
                "accessible from inside 'init' or 'apply'."
            )
        raise AttributeError(msg)

    def __dir__(self) -> list[str]:
        st: _State | None = self.__dict__.get("_state")
        if st is not None and st.scope is not None:
            self._try_setup()
        return list(object.__dir__(self))

    def __repr__(self) -> str:
        return _module_repr(self)

    def setup(self) -> None:
        """Defines submodules and variables as attributes; runs lazily on a bound module."""

    def clone(
        self: M,
        *,
        parent: Any = None,
        _deep_clone: bool | dict[int, Module] = False,
        _reset_names: bool = False,
        **overrides: Any,
    ) -> M:
        """A copy with some fields replaced; ``parent`` defaults to unbound (``None``).

        ``_deep_clone`` (Flax's) also clones the modules held in fields, recursively, each
        shared module once; ``_reset_names`` then clears their names too."""
        values = {f.name: getattr(self, f.name) for f in _fields(self) if f.init}
        values["parent"] = parent
        values.update(overrides)
        if _deep_clone is not False:
            cache: dict[int, Module] = {} if _deep_clone is True else _deep_clone
            for f in _fields(self):
                if f.init and f.name not in ("parent", "name") and f.name not in overrides:
                    values[f.name] = _deep_clone_modules(values[f.name], cache, _reset_names)
        return type(self)(**values)

    # -- the bound module's API -------------------------------------------------------------------

    @property
    def scope(self) -> Scope | None:
        st: _State = self._state
        return st.scope

    def _bound_scope(self, what: str | None = None) -> Scope:
        st: _State = self._state
        s = st.scope
        if s is None:
            if what is not None:  # Flax's ValueError for the variable and rng API
                raise ValueError(f"Can't {what} on unbound modules")
            raise errors.CallCompactUnboundModuleError()
        return s

    @property
    def path(self) -> tuple[str, ...]:
        return self._bound_scope("access module paths").path

    @property
    def variables(self) -> dict[str, Any]:
        """This module's variables, by collection (a read-only view)."""
        s = self._bound_scope("access variables")
        return {col: dict(s.collection_view(col)) for col in s.root.variables}

    def _reserve(self, kind: str, name: str, col: str) -> None:
        """Reserves ``name`` for a variable of collection ``col``: it may be reused by variables
        of other collections (Flax's relaxed naming), not by a submodule or in ``col``."""
        st = self._state
        if st.in_compact or st.in_setup:
            if name in st.reserved and (
                _reservation(name, None) in st.reserved or _reservation(name, col) in st.reserved
            ):
                raise errors.NameInUseError(kind, name, type(self).__name__)
            st.reserved.update((name, _reservation(name, col)))

    def is_initializing(self) -> bool:
        """True inside ``init``/``init_with_output``, False inside ``apply``."""
        return self._bound_scope().root.initializing

    def is_mutable_collection(self, col: str) -> bool:
        return self._bound_scope().root.is_mutable(col)

    def has_variable(self, col: str, name: str) -> bool:
        return self._bound_scope("access variables").has_variable(col, name)

    def get_variable(self, col: str, name: str, default: Any = None) -> Any:
        s = self._bound_scope()
        return s.get_variable(col, name) if s.has_variable(col, name) else default

    def put_variable(self, col: str, name: str, value: Any) -> None:
        self._bound_scope().put_variable(col, name, value)

    def make_rng(self, name: str = "params") -> Any:
        """A fresh key of stream ``name``, distinct per module path and per call."""
        return self._bound_scope("use RNGs").make_rng(name, self.name)

    def param(
        self,
        name: str,
        init_fn: Callable[..., Any],
        *init_args: Any,
        unbox: bool = True,
        **init_kwargs: Any,
    ) -> Any:
        """The parameter ``name``: created by ``init_fn(self.make_rng('params'), *init_args)``
        during ``init``, else the stored value as it is (never cast to ``param_dtype``).
        A boxed value (``nn.Partitioned``) is stored boxed and returned unboxed."""
        s = self._bound_scope()
        if not (self._state.in_setup or self._state.in_compact):
            raise ValueError(
                "Parameters must be initialized in `setup()` or in a method wrapped in `@compact`"
            )
        self._reserve("param", name, "params")
        if s.has_variable("params", name):
            value = s.get_variable("params", name)
            _check_param_shape(name, s.path_text, value, init_fn, init_args, init_kwargs)
            return meta.unbox(value) if unbox else value
        if not s.root.is_mutable("params"):
            if s.is_collection_empty("params"):
                raise errors.ScopeCollectionNotFound("params", name, s.path_text)
            raise errors.ScopeParamNotFoundError(name, s.path_text)
        value = init_fn(self.make_rng("params"), *init_args, **init_kwargs)
        s.put_variable("params", name, value)
        return meta.unbox(value) if unbox else value

    def variable(
        self,
        col: str,
        name: str,
        init_fn: Callable[..., Any] | None = None,
        *init_args: Any,
        unbox: bool = True,
        **init_kwargs: Any,
    ) -> Variable:
        """A handle on variable ``col/name``, created by ``init_fn(*init_args)`` when absent
        and ``col`` is mutable; writing ``.value`` needs ``col`` to be mutable."""
        s = self._bound_scope()
        if not (self._state.in_setup or self._state.in_compact):
            raise ValueError(
                "Variables must be initialized in `setup()` or in a method wrapped in `@compact`"
            )
        self._reserve("variable", name, col)
        if not s.has_variable(col, name):
            if not s.root.is_mutable(col) or init_fn is None:
                if s.is_collection_empty(col):
                    raise errors.ScopeCollectionNotFound(col, name, s.path_text)
                raise errors.ScopeVariableNotFoundError(name, col, s.path_text)
            s.put_variable(col, name, init_fn(*init_args, **init_kwargs))
        return Variable(s, col, name, unbox)

    def sow(
        self,
        col: str,
        name: str,
        value: Any,
        reduce_fn: Callable[[Any, Any], Any] = lambda xs, x: (*xs, x),
        init_fn: Callable[[], Any] = tuple,
    ) -> bool:
        """Appends ``value`` to ``col/name`` (a tuple) when ``col`` is mutable; returns whether
        it stored anything."""
        s = self._bound_scope()
        if not s.root.is_mutable(col):
            return False
        xs = s.get_variable(col, name) if s.has_variable(col, name) else init_fn()
        s.put_variable(col, name, reduce_fn(xs, value))
        return True

    # -- init / apply -----------------------------------------------------------------------------

    def _run(
        self,
        variables: Mapping[str, Any],
        rngs: Mapping[str, Any],
        method: Any,
        mutable: Any,
        initializing: bool,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        capture: Any = False,
    ) -> tuple[Any, dict[str, Any]]:
        for stream, key in rngs.items():
            if not hasattr(key, "shape"):
                raise errors.InvalidRngError(
                    f"RNGs should be of shape (2,) or PRNGKey in Module {type(self).__name__}, "
                    f"but rngs are: {dict(rngs)} (stream {stream!r})"
                )
        if capture:  # Flax's capture_intermediates: the intermediates collection is mutable
            base = _predicate(mutable)
            mutable = _Pred(
                lambda c: c == "intermediates" or base(c),
                ("with_intermediates", filter_key(mutable)),
            )
        root = _Root(variables, rngs, mutable, initializing)
        bound = self.clone(parent=Scope(root, ()), _deep_clone=True)
        if method is None:
            method = next(
                (c.__dict__["__call__"] for c in type(self).__mro__ if "__call__" in c.__dict__),
                None,
            )
            if method is None:
                raise AttributeError(f'"{type(self).__name__}" object has no attribute "__call__"')
        if isinstance(method, str):
            name = method
            attr = getattr(type(bound), name, None)
            if callable(attr) and not isinstance(attr, Module):
                method = attr
            else:
                value = getattr(bound, name)  # AttributeError when there is none
                if not callable(value):
                    raise TypeError(
                        f"'{type(self).__name__}.{name}' must be a callable, got {type(value)}."
                    )
                method = lambda m, *a, **k: getattr(m, name)(*a, **k)  # noqa: E731
        if inspect.ismethod(method) and isinstance(method.__self__, Module):
            method = method.__func__  # a bound method: run it on the bound clone
        if not callable(method) or not _takes_module(method):
            raise errors.ApplyModuleInvalidMethodError(method)
        if capture:
            with intercept_methods(_capturer(capture)):
                out = method(bound, *args, **kwargs)
        else:
            out = method(bound, *args, **kwargs)
        updated = root.mutable_variables()
        if "return_frozendict" in FLAX_HOOKS and FLAX_HOOKS["return_frozendict"]():
            updated = FLAX_HOOKS["FrozenDict"](updated)  # Flax's flax_return_frozendict flag
        return out, updated

    @traceback_filter.api_boundary
    def init_with_output(
        self,
        rngs: Any,
        *args: Any,
        method: Any = None,
        mutable: Any = _INIT_MUTABLE,
        capture_intermediates: bool | Callable[[Module, str], bool] = False,
        **kwargs: Any,
    ) -> tuple[Any, dict[str, Any]]:
        """Runs the module to create its variables; returns ``(output, variables)``.

        ``rngs`` is a key (the ``params`` stream) or a dict of streams."""
        _module_checks(self)
        if not isinstance(rngs, Mapping):
            if not hasattr(rngs, "shape"):
                raise errors.InvalidRngError(
                    f"RNGs should be of shape (2,) or PRNGKey in Module {type(self).__name__}, "
                    f"but rngs are: {rngs}"
                )
            rngs = {"params": rngs}
        elif any(not hasattr(k, "shape") for k in rngs.values()):
            raise ValueError(
                "First argument passed to an init function should be a ``jax.PRNGKey`` or a "
                f"dictionary mapping strings to ``jax.PRNGKey``, got {dict(rngs)}."
            )
        return self._run({}, rngs, method, mutable, True, args, kwargs, capture_intermediates)

    @traceback_filter.api_boundary
    def init(
        self,
        rngs: Any,
        *args: Any,
        method: Any = None,
        mutable: Any = _INIT_MUTABLE,
        capture_intermediates: bool | Callable[[Module, str], bool] = False,
        **kwargs: Any,
    ) -> dict[str, Any]:
        """The variables (a plain dict of collections) made by running the module once."""
        _module_checks(self)
        return self.init_with_output(
            rngs,
            *args,
            method=method,
            mutable=mutable,
            capture_intermediates=capture_intermediates,
            **kwargs,
        )[1]

    @traceback_filter.api_boundary
    def apply(
        self,
        variables: Mapping[str, Any],
        *args: Any,
        rngs: Mapping[str, Any] | None = None,
        method: Any = None,
        mutable: Any = False,
        capture_intermediates: bool | Callable[[Module, str], bool] = False,
        **kwargs: Any,
    ) -> Any:
        """Runs the module with ``variables``; with ``mutable`` (a collection name, a list of
        them, or True) returns ``(output, updated_mutable_collections)``.
        ``capture_intermediates`` (True: every ``__call__``; or ``fn(module, method_name)``)
        sows the return values of module methods in the ``intermediates`` collection."""
        _module_checks(self)
        if rngs is not None and not isinstance(rngs, Mapping):
            if not hasattr(rngs, "shape"):
                raise errors.InvalidRngError(
                    f"RNGs should be of shape (2,) or PRNGKey in Module {type(self).__name__}, "
                    f"but rngs are: {rngs}"
                )
            rngs = {"params": rngs}  # a key alone is the params stream, as in init
        elif rngs is not None and any(not hasattr(k, "shape") for k in rngs.values()):
            raise ValueError(
                "The ``rngs`` argument passed to an apply function should be a ``jax.PRNGKey`` "
                f"or a dictionary mapping strings to ``jax.PRNGKey``, got {dict(rngs)}."
            )
        out, updated = self._run(
            variables, rngs or {}, method, mutable, False, args, kwargs, capture_intermediates
        )
        return out if mutable is False and not capture_intermediates else (out, updated)

    def bind(
        self: M,
        variables: Mapping[str, Any],
        *,
        rngs: Mapping[str, Any] | None = None,
        mutable: Any = False,
    ) -> M:
        """A bound copy for interactive use: ``model.bind(variables).dense(x)``."""
        _module_checks(self)
        if rngs is not None and not isinstance(rngs, Mapping):
            rngs = {"params": rngs}
        scope = Scope(_Root(variables, rngs or {}, mutable, False), ())
        return self.clone(parent=scope, _deep_clone=True)

    def unbind(self: M) -> tuple[M, dict[str, Any]]:
        """An unbound copy of this bound module and its variables."""
        if self._state.scope is None:
            raise errors.CallUnbindOnUnboundModuleError()
        self._try_setup()
        return self.clone(_deep_clone=True, _reset_names=True, name=None), self.variables

    def copy(self: M, *, parent: Any = _UNSPECIFIED, name: str | None = None, **updates: Any) -> M:
        """A copy with ``updates`` applied, named anew (``name``) and, unless ``parent`` is
        given, a child of the module being defined (as a module constructed there)."""
        return self.clone(parent=parent, name=name, **updates)

    def has_rng(self, name: str) -> bool:
        """Whether rng stream ``name`` was given to ``init``/``apply``."""
        return name in self._bound_scope("use RNGs").root.rngs

    def perturb(self, name: str, value: Any, collection: str = "perturbations") -> Any:
        """``value`` plus the variable ``collection/name`` (zeros, created when the collection
        is mutable): the gradient of the loss with respect to that variable is the gradient
        with respect to this intermediate value."""
        s = self._bound_scope()
        if s.root.is_mutable(collection) and not s.has_variable(collection, name):
            self._reserve("perturbation", name, collection)
            s.put_variable(collection, name, tree_util.tree_map(_zeros_like, value))
        if collection in s.root.variables:
            if not s.has_variable(collection, name):
                raise ValueError(
                    f"Perturbation collection {collection} present, but missing perturbation "
                    f"variable {name}"
                )
            value = tree_util.tree_map(_add, value, s.get_variable(collection, name))
        return value

    def tabulate(self, rngs: Any, *args: Any, **kwargs: Any) -> str:
        """Flax's summary table of an ``init`` run on ``args`` (see ``nn.tabulate``)."""
        names = ("depth", "show_repeated", "mutable", "console_kwargs", "table_kwargs")
        opts = {k: kwargs.pop(k) for k in names if k in kwargs}
        more = ("column_kwargs", "compute_flops", "compute_vjp_flops")
        opts.update({k: kwargs.pop(k) for k in more if k in kwargs})
        return str(_SUMMARY["tabulate"](self, rngs, **opts)(*args, **kwargs))

    def module_paths(self, rngs: Any, *args: Any, **kwargs: Any) -> dict[str, Module]:
        """``{path: unbound module}`` of every module an ``init`` run calls."""
        paths: dict[str, Module] = _SUMMARY["module_paths"](self, rngs, *args, **kwargs)
        return paths

    def lazy_init(
        self, rngs: Any, *args: Any, method: Any = None, mutable: Any = _INIT_MUTABLE, **kwargs: Any
    ) -> dict[str, Any]:
        """``init`` where inputs may be given as shapes only (``ShapeDtypeStruct``): only what
        the variables need is computed (``LazyInitError`` if they need such an input's
        values)."""
        _module_checks(self)

        def init(r: Any, *a: Any, **k: Any) -> Any:
            return self.init(r, *a, method=method, mutable=mutable, **k)

        variables: dict[str, Any] = _lazy.lazy_init(init, rngs, args, kwargs)
        return variables


def _module_checks(module: Any) -> None:
    if not isinstance(module, Module):
        raise errors.InvalidInstanceModuleError()
    if "_state" not in module.__dict__:
        raise errors.IncorrectPostInitOverrideError()


def share_scope(module: Module, other: Module, /) -> None:
    """Makes ``module`` use ``other``'s scope (or, when ``other`` lies below ``module``,
    ``other`` use ``module``'s): their variables then live at one path."""
    ms, os_ = module._state.scope, other._state.scope
    if ms is None or os_ is None:
        raise errors.CallShareScopeOnUnboundModuleError()
    n = len(ms.path)
    if os_.root is ms.root and os_.path[:n] == ms.path:
        _rescope(other, ms)
    else:
        _rescope(module, os_)


def _rescope(module: Module, scope: Scope) -> None:
    """Moves ``module`` and the children bound below it so far to ``scope``."""
    module._state.scope = scope
    for name, child in module._state.children.items():
        if child._state.scope is not None:
            _rescope(child, scope.push(name))


def compact_name_scope(fun: F) -> F:
    """Marks a method that runs in a named scope of its own (named after the method): the
    submodules it creates inline are named below it, as in a ``@compact`` submodule."""

    @functools.wraps(fun)
    def wrapper(self: Module, *args: Any, **kwargs: Any) -> Any:
        name = fun.__name__
        self._try_setup()
        scopes = self.__dict__.get("_compact_name_scope_modules")
        if scopes is None:
            raise ValueError(
                f"Cannot call compact_name_scope method {name!r} on a Module that has not been "
                f"setup. This is likely because you are calling {name!r} from outside of init "
                "or apply."
            )
        return scopes[name](*args, **kwargs)

    wrapper.compact_name_scope = True  # type: ignore[attr-defined]
    wrapper.inner_fun = fun  # type: ignore[attr-defined]
    wrapper.nowrap = True  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]


class Sequential(Module):
    """Calls its layers in turn; a tuple output is splatted, a dict output passed as keywords."""

    layers: Sequence[Callable[..., Any]]

    def __post_init__(self) -> None:
        if not isinstance(self.layers, Sequence):
            raise ValueError(f"'layers' must be a sequence, got '{type(self.layers).__name__}'.")
        super().__post_init__()

    @compact  # as Flax's: a layer may build modules when called (``lambda x: nn.Dense(2)(x)``)
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not self.layers:
            raise ValueError(f"Empty Sequential module {self.name}.")
        out = self.layers[0](*args, **kwargs)
        for layer in self.layers[1:]:
            if isinstance(out, tuple):
                out = layer(*out)
            elif isinstance(out, dict):
                out = layer(**out)
            else:
                out = layer(out)
        return out


class CompactNameScope(Module):
    """The submodule behind a :func:`compact_name_scope` method."""

    fn: Callable[..., Any]
    module_fn: Callable[[], Module]

    @compact
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(self.module_fn(), *args, **kwargs)


def _indent(text: str, n: int) -> str:
    return "".join(" " * n + line + "\n" for line in text.split("\n")[:-1])


def _attr_repr(value: Any) -> str:
    name = getattr(value, "__name__", None)
    if isinstance(value, Module):
        name = value.__dict__.get("__name__")
    return name if callable(value) and name else repr(value)


def _module_repr(module: Module, n: int = 4) -> str:
    """Flax's module repr: ``Dense(\\n    # attributes\\n    features = 3\\n ...)``."""
    rep = ""
    attrs = [f.name for f in _fields(module) if f.name not in ("parent", "name") and f.repr]
    if attrs:
        rep += "# attributes\n"
        rep += "".join(f"{a} = {_attr_repr(module.__dict__.get(a))}\n" for a in attrs)
    st: _State | None = module.__dict__.get("_state")
    children = st.children if st is not None else {}
    if children:
        rep += "# children\n"
        rep += "".join(f"{k} = {_module_repr(c, n)}\n" for k, c in children.items())
    return f"{type(module).__name__}(\n{_indent(rep, n)})" if rep else f"{type(module).__name__}()"


def _reservation(name: str, col: str | None) -> str:
    """The entry of ``_State.reserved`` marking ``name`` as taken by a submodule (``col`` None)
    or by a variable of collection ``col`` (beside the bare name, which every use adds)."""
    return f"{name}\x00{col or ''}"


def _deep_clone_modules(value: Any, cache: dict[int, Module], reset_names: bool) -> Any:
    """``value`` with every module in it (also inside lists, tuples and dicts) cloned unbound,
    deeply; a module met twice is cloned once."""
    if isinstance(value, Module):
        key = id(value)
        if key not in cache:
            extra = {"name": None} if reset_names else {}
            cache[key] = value.clone(_deep_clone=cache, _reset_names=reset_names, **extra)
        return cache[key]
    if isinstance(value, list | tuple) and not hasattr(value, "_fields"):
        items = [_deep_clone_modules(v, cache, reset_names) for v in value]
        return type(value)(items) if isinstance(value, list) else tuple(items)
    if isinstance(value, dict):
        return {k: _deep_clone_modules(v, cache, reset_names) for k, v in value.items()}
    return value


def _sorted_keys(d: dict[Any, Any]) -> list[Any]:
    """The keys of ``d`` sorted as Flax names submodules (by their text)."""
    return sorted(d, key=str)
