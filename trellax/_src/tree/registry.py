"""The pytree node registry: which Python types are containers, and how to take them apart.

Built in: ``list``, ``tuple``, ``dict`` (children in sorted key order), ``None`` (a node with no
children), every namedtuple class (a ``tuple`` subclass with ``_fields``), ``OrderedDict`` (key
order kept) and ``defaultdict`` (sorted keys; ``default_factory`` kept in the aux data). Every
other type is a leaf unless registered here. Subclasses of the built-in containers are leaves too:
registration is by exact type.

A registration is a pair of functions ``flatten(node) -> (children, aux_data)`` and
``unflatten(aux_data, children) -> node``. The aux data becomes part of the ``PyTreeDef``: it must
be hashable and compare with ``==`` (tuples, strings, numbers; never arrays or lists).
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from operator import attrgetter
from typing import Any, TypeVar

from trellax._src.tree.keys import FlattenedIndexKey, GetAttrKey

T = TypeVar("T")
Typ = TypeVar("Typ", bound=type)

FlattenFn = Callable[[Any], tuple[Iterable[Any], Any]]
UnflattenFn = Callable[[Any, Iterable[Any]], Any]
FlattenWithKeysFn = Callable[[Any], tuple[Iterable[tuple[Any, Any]], Any]]

# Node kinds. The engine branches on these small ints; custom registrations are all CUSTOM.
LIST, TUPLE, DICT, NONE, NAMEDTUPLE, ORDERED_DICT, DEFAULT_DICT, CUSTOM = range(1, 9)


class Registration:
    """How one node type is flattened and rebuilt. One object per type, compared by identity."""

    __slots__ = ("flatten", "flatten_with_keys", "kind", "origin", "type", "unflatten", "user_leaf")

    def __init__(
        self,
        kind: int,
        nodetype: type,
        origin: str,
        flatten: FlattenFn | None = None,
        unflatten: UnflattenFn | None = None,
        flatten_with_keys: FlattenWithKeysFn | None = None,
    ) -> None:
        self.kind = kind
        self.type = nodetype
        self.origin = origin
        self.flatten = flatten
        self.unflatten = unflatten
        self.flatten_with_keys = flatten_with_keys
        self.user_leaf = False  # a node for the transformations, a leaf for the public functions

    def __repr__(self) -> str:
        return f"<pytree registration of {self.type.__qualname__} by {self.origin}>"

    def parts(self, node: Any, with_keys: bool = False) -> tuple[Iterable[Any], Any]:
        """``(children, aux_data)`` of a custom node (``((key, child), ...)`` pairs for
        children when ``with_keys``), checked: a registered function returning anything else
        is named in the error, with the type it was registered for."""
        fn = self.flatten_with_keys if with_keys else self.flatten
        assert fn is not None
        return self.check_parts(fn(node), with_keys)

    def check_parts(self, out: Any, with_keys: bool = False) -> tuple[Iterable[Any], Any]:
        """``out``, the result of the registered flatten function, if it is a ``(children,
        aux_data)`` tuple with iterable children; otherwise the error :meth:`parts` raises."""
        what = "flatten_with_keys" if with_keys else "flatten"
        if type(out) is not tuple or len(out) != 2:
            raise ValueError(
                "The to_iterable function for a custom PyTree node should return a (children, "
                f"aux_data) tuple, got {out!r} of type {type(out).__name__} (from the {what} "
                f"function registered for the custom pytree node type {self.type.__qualname__})"
            )
        if not isinstance(out[0], Iterable):
            raise ValueError(
                "The to_iterable function for a custom PyTree node should return a (children, "
                f"aux_data) tuple where 'children' is iterable, got {out!r} (from the {what} "
                f"function registered for the custom pytree node type {self.type.__qualname__})"
            )
        return out

    def __reduce__(self) -> tuple[Callable[[type], Registration], tuple[type]]:
        # A PyTreeDef pickles its node types by reference; unpickling looks the type up again.
        return (registration_of, (self.type,))


_BUILTIN_KINDS: list[tuple[type, int]] = [
    (list, LIST),
    (tuple, TUPLE),
    (dict, DICT),
    (type(None), NONE),
    (OrderedDict, ORDERED_DICT),
    (defaultdict, DEFAULT_DICT),
]
_BUILTINS = {t: Registration(kind, t, "built-in") for t, kind in _BUILTIN_KINDS}
# Every registered (and built-in) node type: the authority.
_REGISTERED: dict[type, Registration] = dict(_BUILTINS)
# Namedtuple classes seen so far. Kept for the life of the process so that a namedtuple type always
# maps to the same Registration (PyTreeDef equality compares registrations by identity).
_NAMEDTUPLES: dict[type, Registration] = {}
# The engine's dispatch table: type -> Registration, or None for a leaf type. A cache of the two
# dicts above plus every leaf type seen; rebuilt from them when it grows too large.
KIND: dict[type, Registration | None] = dict(_REGISTERED)
_KIND_LIMIT = 4096

LIST_REG = _BUILTINS[list]
TUPLE_REG = _BUILTINS[tuple]
DICT_REG = _BUILTINS[dict]
NONE_REG = _BUILTINS[type(None)]


def classify(t: type) -> Registration | None:
    """Looks ``t`` up (a miss in ``KIND``) and caches the answer: a Registration or None (leaf)."""
    reg = _REGISTERED.get(t)
    if reg is None:
        reg = _NAMEDTUPLES.get(t)
    if reg is None and issubclass(t, tuple) and hasattr(t, "_fields"):
        reg = _NAMEDTUPLES[t] = Registration(NAMEDTUPLE, t, "namedtuple")
    if len(KIND) >= _KIND_LIMIT:
        KIND.clear()
        KIND.update(_REGISTERED)
        KIND.update(_NAMEDTUPLES)
    KIND[t] = reg
    return reg


def registration_of(t: type) -> Registration:
    """The Registration of a node type (used when unpickling a PyTreeDef)."""
    reg = KIND.get(t) or classify(t)
    if reg is None:
        raise ValueError(
            f"{t.__module__}.{t.__qualname__} is not registered as a pytree node in this "
            "process. Register it (register_pytree_node, register_dataclass, ...) before "
            "unpickling or using a PyTreeDef that contains it."
        )
    return reg


def _add(reg: Registration, caller: str) -> None:
    t = reg.type
    if not isinstance(t, type):
        raise TypeError(f"{caller}: expected a class, got {t!r}.")
    old = _REGISTERED.get(t)
    if old is not None:
        if old.origin == "built-in":
            raise ValueError(
                f"{caller}: {t.__qualname__} is a built-in pytree container and cannot be "
                "registered again. To treat it differently, wrap it in a class of your own and "
                "register that."
            )
        raise ValueError(
            f"{caller}: duplicate pytree node registration for {t.__module__}.{t.__qualname__}; "
            f"it was already registered by {old.origin}. A type can be registered only once "
            "(each subclass needs its own registration)."
        )
    _REGISTERED[t] = reg
    KIND[t] = reg


USER_LEAF_TYPES: set[type] = set()
#: how many nodes of those types were flattened so far (the public functions compare it before
#: and after a flatten: unchanged, the tree held none, which costs one list read)
USER_LEAF_SEEN: list[int] = [0]


def _counting(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def counted(node: Any) -> Any:
        USER_LEAF_SEEN[0] += 1
        return fn(node)

    return counted


def treat_as_leaf_publicly(nodetype: type) -> None:
    """Makes the registered node type ``nodetype`` a leaf for the public tree functions
    (``trellax.tree_util``, ``trellax.tree``) while the transformations, which flatten with
    this package's own functions, keep descending into it (how a typed PRNG key is one leaf to
    users, as in JAX, but crosses ``jit``/``vmap``/``grad`` as its uint32 data)."""
    reg = _REGISTERED.get(nodetype)
    if reg is None:
        raise ValueError(f"{nodetype.__qualname__} is not a registered pytree node type.")
    if not reg.user_leaf:
        reg.user_leaf = True
        reg.flatten = _counting(reg.flatten)  # type: ignore[arg-type]
        if reg.flatten_with_keys is not None:
            reg.flatten_with_keys = _counting(reg.flatten_with_keys)
    USER_LEAF_TYPES.add(nodetype)


def register_pytree_node(
    nodetype: type[T],
    flatten_func: Callable[[T], tuple[Iterable[Any], Any]],
    unflatten_func: Callable[[Any, Iterable[Any]], T],
    flatten_with_keys_func: Callable[[T], tuple[Iterable[tuple[Any, Any]], Any]] | None = None,
) -> None:
    """Makes ``nodetype`` a pytree container.

    ``flatten_func(node)`` returns ``(children, aux_data)``: the children are flattened further,
    the aux data (hashable, comparable) is kept in the treedef. ``unflatten_func(aux_data,
    children)`` rebuilds a node from a tuple of children. Transformations call it with
    placeholder children (``object()``, ``None``, tracers), so it should not validate them.

    >>> class Pair:
    ...     def __init__(self, a, b):
    ...         self.a, self.b = a, b
    >>> register_pytree_node(Pair, lambda p: ((p.a, p.b), None), lambda _, ch: Pair(*ch))
    """
    _add(
        Registration(
            CUSTOM,
            nodetype,
            "register_pytree_node",
            flatten_func,
            unflatten_func,
            flatten_with_keys_func,
        ),
        "register_pytree_node",
    )


def register_pytree_with_keys(
    nodetype: type[T],
    flatten_with_keys: Callable[[T], tuple[Iterable[tuple[Any, Any]], Any]],
    unflatten_func: Callable[[Any, Iterable[Any]], T],
    flatten_func: Callable[[T], tuple[Iterable[Any], Any]] | None = None,
) -> None:
    """Like ``register_pytree_node``, with a flatten function that names each child.

    ``flatten_with_keys(node)`` returns ``(((key, child), ...), aux_data)``; the keys appear in
    key paths (``tree_flatten_with_path``). ``flatten_func`` is optional, a faster equivalent
    without keys.
    """
    reg = Registration(
        CUSTOM,
        nodetype,
        "register_pytree_with_keys",
        flatten_func,
        unflatten_func,
        flatten_with_keys,
    )
    if flatten_func is None:

        def children_and_aux(node: T) -> tuple[Iterable[Any], Any]:
            pairs, aux = reg.parts(node, with_keys=True)
            return [child for _, child in pairs], aux

        reg.flatten = children_and_aux
    _add(
        reg,
        "register_pytree_with_keys",
    )


def register_pytree_node_class(cls: Typ) -> Typ:
    """Class decorator: registers ``cls`` using its ``tree_flatten`` method and its
    ``tree_unflatten(aux_data, children)`` classmethod. Returns ``cls``."""
    _add(
        Registration(
            CUSTOM,
            cls,
            "register_pytree_node_class",
            attrgetter_call("tree_flatten"),
            cls.tree_unflatten,  # type: ignore[attr-defined]
        ),
        "register_pytree_node_class",
    )
    return cls


def register_pytree_with_keys_class(cls: Typ) -> Typ:
    """Class decorator: like ``register_pytree_node_class``, using ``tree_flatten_with_keys``
    (and ``tree_flatten`` when the class defines it)."""
    flatten_with_keys = attrgetter_call("tree_flatten_with_keys")
    flatten = attrgetter_call("tree_flatten") if hasattr(cls, "tree_flatten") else None
    register_pytree_with_keys(cls, flatten_with_keys, cls.tree_unflatten, flatten)  # type: ignore[attr-defined]
    _REGISTERED[cls].origin = "register_pytree_with_keys_class"
    return cls


def attrgetter_call(name: str) -> Callable[[Any], Any]:
    """``lambda obj: obj.<name>()``, as a named function (readable in tracebacks)."""

    def call(obj: Any) -> Any:
        return getattr(obj, name)()

    call.__name__ = call.__qualname__ = f"call_{name}"
    return call


def register_dataclass(
    nodetype: Typ,
    data_fields: Sequence[str] | None = None,
    meta_fields: Sequence[str] | None = None,
    drop_fields: Sequence[str] = (),
) -> Typ:
    """Registers a class whose fields are children (``data_fields``) or static aux data
    (``meta_fields``). Returns the class, so it works as a decorator.

    For a dataclass both lists may be omitted: fields declared with
    ``field(metadata={"static": True})`` are meta fields, the other ``init=True`` fields data.
    Nodes are rebuilt with ``nodetype(**fields)``; meta field values must be hashable.

    >>> @register_dataclass
    ... @dataclasses.dataclass
    ... class Params:
    ...     w: object
    ...     b: object
    ...     name: str = dataclasses.field(default="dense", metadata={"static": True})
    """
    if data_fields is None or meta_fields is None:
        if data_fields is not None or meta_fields is not None:
            raise TypeError(
                "register_dataclass: data_fields and meta_fields must both be specified when "
                f"either is specified. Got data_fields={data_fields!r} meta_fields={meta_fields!r}"
                " (pass both, or neither to infer them from a dataclass)."
            )
        if not dataclasses.is_dataclass(nodetype):
            raise TypeError(
                "register_dataclass: data_fields and meta_fields are required when nodetype is "
                f"not a dataclass. Got nodetype={nodetype!r}."
            )
        data_fields, meta_fields = [], []
        for field in dataclasses.fields(nodetype):
            if not field.init or field.name in drop_fields:
                continue
            (meta_fields if field.metadata.get("static", False) else data_fields).append(field.name)
    data = tuple(data_fields)
    meta = tuple(meta_fields)
    if isinstance(data_fields, str) or isinstance(meta_fields, str):
        raise TypeError("register_dataclass: data_fields and meta_fields must be lists of names.")
    overlap = set(data) & set(meta)
    if overlap:
        raise ValueError(
            f"data_fields and meta_fields must not overlap. Overlapping fields: {overlap}."
        )
    if dataclasses.is_dataclass(nodetype):
        init = {f.name for f in dataclasses.fields(nodetype) if f.init}
        given = set(data) | set(meta) | set(drop_fields)
        missing, unexpected = init - given, given - init
        if missing or unexpected:
            detail = []
            if missing:
                detail.append(
                    f"Missing fields: {missing}. Add them to drop_fields to suppress this error."
                )
            if unexpected:
                detail.append(f"Unexpected fields: {unexpected}.")
            raise ValueError(
                "data_fields and meta_fields must include all dataclass fields with "
                "``init=True`` and only them. " + " ".join(detail)
            )
    get_data = _tuple_getter(data)
    get_meta = _tuple_getter(meta)
    keys = tuple(GetAttrKey(name) for name in data)

    def flatten(node: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        return get_data(node), get_meta(node)

    def flatten_with_keys(node: Any) -> tuple[list[tuple[Any, Any]], tuple[Any, ...]]:
        return list(zip(keys, get_data(node))), get_meta(node)

    def unflatten(aux: tuple[Any, ...], children: Iterable[Any]) -> Any:
        return nodetype(**dict(zip(data, children)), **dict(zip(meta, aux)))

    _add(
        Registration(CUSTOM, nodetype, "register_dataclass", flatten, unflatten, flatten_with_keys),
        "register_dataclass",
    )
    return nodetype


def _tuple_getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    if not names:
        return lambda _: ()
    if len(names) == 1:
        get_one = attrgetter(names[0])
        return lambda node: (get_one(node),)
    return attrgetter(*names)


def register_static(cls: Typ) -> Typ:
    """Registers ``cls`` as a node with no children: its instances live in the treedef as aux
    data, compared with ``==`` (as in JAX they need not be hashable). Returns ``cls``; usable
    as a decorator."""
    if not isinstance(cls, type):
        raise TypeError(f"register_static expects a class, got {cls!r}")
    _add(
        Registration(CUSTOM, cls, "register_static", _flatten_static, _unflatten_static),
        "register_static",
    )
    return cls


def _flatten_static(node: Hashable) -> tuple[tuple[()], Hashable]:
    return (), node


def _unflatten_static(aux: Any, children: Iterable[Any]) -> Any:
    return aux


def custom_keys(reg: Registration, node: Any) -> tuple[list[Any], list[Any], Any]:
    """Children, their keys and the aux data of a CUSTOM node."""
    if reg.flatten_with_keys is not None:
        pairs, aux = reg.parts(node, with_keys=True)
        pairs = list(pairs)
        return [c for _, c in pairs], [k for k, _ in pairs], aux
    children, aux = reg.parts(node)
    children = list(children)
    return children, [FlattenedIndexKey(i) for i in range(len(children))], aux
