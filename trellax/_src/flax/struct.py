"""``flax.struct``: frozen dataclasses that are pytrees.

``@dataclass`` makes a class a frozen dataclass (pass ``frozen=False`` to allow assignment; other
keywords such as ``kw_only`` or ``slots`` go to :func:`dataclasses.dataclass`), registers it as a
pytree whose children are its fields, and gives it ``.replace(**updates)``. A field declared with
``field(pytree_node=False)`` is static: it is aux data of the pytree (not a leaf; it must be
hashable to take part in ``jit`` caching) and is not saved by ``flax.serialization``.
Subclassing :class:`PyTreeNode` does the same (class keywords go to the dataclass).

Example::

    >>> import trellax
    >>> @dataclass
    ... class Model:
    ...     params: dict
    ...     apply_fn: object = field(pytree_node=False)
    >>> m = Model({"w": 1.0}, apply_fn=None)
    >>> trellax.tree_util.tree_leaves(m)
    [1.0]
    >>> m.replace(params={"w": 2.0}).params
    {'w': 2.0}
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, overload

from trellax._src.flax.state_dict import current_path, from_state_dict, to_state_dict
from trellax._src.flax.state_dict import register_serialization_state as _register_state
from trellax.tree_util import register_dataclass

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
elif TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:

    def dataclass_transform(**kwargs: Any) -> Any:
        """Python 3.10 has no ``typing.dataclass_transform``; it only informs type checkers."""
        return lambda obj: obj


_T = TypeVar("_T")
TNode = TypeVar("TNode", bound="PyTreeNode")


def field(
    pytree_node: bool = True, *, metadata: dict[str, Any] | None = None, **kwargs: Any
) -> Any:
    """A dataclass field; ``pytree_node=False`` makes it static (aux data, not a pytree child).

    Other keywords (``default``, ``default_factory``, ``init``, ...) go to
    :func:`dataclasses.field`; ``metadata`` is kept and gets a ``'pytree_node'`` entry.
    """
    return dataclasses.field(metadata={**(metadata or {}), "pytree_node": pytree_node}, **kwargs)


def _replace(self: _T, **updates: Any) -> _T:
    """A copy with the given fields replaced (the instance itself is immutable)."""
    return dataclasses.replace(self, **updates)  # type: ignore[type-var]


def _register_state_dict(cls: type, data_fields: list[str]) -> None:
    def to_state(x: Any) -> dict[str, Any]:
        return {name: to_state_dict(getattr(x, name)) for name in data_fields}

    def from_state(x: Any, state: Any) -> Any:
        if not isinstance(state, dict):
            raise ValueError(
                f"Expected a state dict (a dict) to restore an instance of {cls.__name__}, got "
                f"{type(state).__name__} at path {current_path()}"
            )
        remaining = dict(state)
        updates = {}
        for name in data_fields:
            if name not in remaining:
                raise ValueError(
                    f"Missing field {name} in state dict while restoring an instance of "
                    f"{cls.__name__}, at path {current_path()}"
                )
            updates[name] = from_state_dict(getattr(x, name), remaining.pop(name), name=name)
        if remaining:
            names = ",".join(map(str, remaining))
            raise ValueError(
                f'Unknown field(s) "{names}" in state dict while restoring an instance of '
                f"{cls.__name__} at path {current_path()}"
            )
        return x.replace(**updates)

    _register_state(cls, to_state, from_state, override=True)


@overload
def dataclass(clz: _T, **kwargs: Any) -> _T: ...


@overload
def dataclass(**kwargs: Any) -> Callable[[_T], _T]: ...


@dataclass_transform(field_specifiers=(field,))
def dataclass(clz: Any = None, **kwargs: Any) -> Any:
    """Makes ``clz`` a frozen dataclass registered as a pytree, with ``.replace``.

    Usable bare (``@dataclass``) or with dataclass keywords (``@dataclass(frozen=False)``).
    Applying it to a class that it already made is a no-op.
    """
    if clz is None:
        return lambda c: dataclass(c, **kwargs)
    if "_flax_dataclass" in clz.__dict__:
        return clz
    kwargs.setdefault("frozen", True)
    data_clz = dataclasses.dataclass(**kwargs)(clz)
    # Fields with init=False are not pytree parts: __init__/__post_init__ recompute them.
    data_fields, meta_fields = [], []
    for f in dataclasses.fields(data_clz):
        if not f.init:
            continue
        if f.metadata.get("pytree_node", True):
            data_fields.append(f.name)
        else:
            meta_fields.append(f.name)
    data_clz.replace = _replace
    register_dataclass(data_clz, data_fields, meta_fields)
    _register_state_dict(data_clz, data_fields)
    data_clz._flax_dataclass = True
    return data_clz


@dataclass_transform(field_specifiers=(field,))
class PyTreeNode:
    """Base class: each subclass becomes a ``@dataclass`` (class keywords go to the dataclass).

    Example: ``class State(PyTreeNode, kw_only=True): step: int``.
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__()
        dataclass(cls, **kwargs)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Replaced by the dataclass's own __init__ in every subclass.
        raise NotImplementedError("PyTreeNode is a base class: instantiate a subclass of it.")

    def replace(self: TNode, **overrides: Any) -> TNode:
        """A copy with the given fields replaced (set on every subclass by ``dataclass``)."""
        raise NotImplementedError
