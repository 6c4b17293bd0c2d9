"""Dictionary views of the rules registered on primitives (JAX's ``ad.primitive_jvps``,
``ad.primitive_transposes``, ``batching.primitive_batchers``).

In trellax a primitive holds its own rules (``Primitive.def_jvp`` and friends); code written for
JAX registers them by assigning into these tables instead. A ``RuleTable`` reads and writes the
primitive's slot, so both ways register the same rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping
from typing import Any

from trellax._src.core.core import Primitive, primitives

Rule = Callable[..., Any]


class RuleTable(MutableMapping[Primitive, Rule]):
    """``{primitive: rule}`` for one kind of rule (the slot ``attr`` of ``Primitive``).

    >>> from trellax._src.core.core import Primitive
    >>> p = Primitive("twice_example")
    >>> table = RuleTable("batch_rule")
    >>> table[p] = lambda args, dims: (args[0] * 2, dims[0])
    >>> p in table, p.batch_rule is table[p]
    (True, True)
    """

    def __init__(self, attr: str) -> None:
        self._attr = attr

    def __getitem__(self, prim: Primitive) -> Rule:
        rule: Rule | None = getattr(prim, self._attr, None) if isinstance(prim, Primitive) else None
        if rule is None:
            raise KeyError(prim)
        return rule

    def __setitem__(self, prim: Primitive, rule: Rule) -> None:
        if not isinstance(prim, Primitive):
            raise TypeError(f"rules are registered for primitives, got {type(prim).__name__}")
        setattr(prim, self._attr, rule)

    def __delitem__(self, prim: Primitive) -> None:
        self[prim]  # KeyError when absent
        setattr(prim, self._attr, None)

    def __iter__(self) -> Iterator[Primitive]:
        return (p for p in primitives().values() if getattr(p, self._attr) is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)
