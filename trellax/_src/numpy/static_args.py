"""Arguments that JAX marks static (``jit(static_argnames=...)`` around its ``jax.numpy``
functions): they take part in its compilation cache key, so they must be hashable.

An array (trellax's, NumPy's) or a list there is refused by JAX before any work with its
``ValueError`` (``Non-hashable static arguments are not supported``), eagerly too; trellax
checks the same arguments of the same functions and raises the same error, so a program that
runs here also runs under JAX. NumPy scalars, Python numbers, tuples and strings are hashable.
"""

from __future__ import annotations

import operator
from typing import Any

from trellax._src.core.errors import NonHashableStaticArgumentError


def check_static(fun_name: str, **args: Any) -> None:
    """Raises JAX's ``ValueError`` for the first unhashable one of ``args`` (name=value)."""
    for name, value in args.items():
        try:
            hash(value)
        except TypeError as e:
            raise NonHashableStaticArgumentError(
                "Non-hashable static arguments are not supported. An error occurred while trying "
                f"to hash an object of type {type(value)}, {value}. The error was:\n"
                f"TypeError: {e}\n\n"
                f"trellax.numpy.{fun_name}'s {name} is static, as in JAX: pass a Python value "
                "(a tuple for a sequence)"
            ) from None


def int_axis(
    fun_name: str, axis: Any, what: str = "axis", error: type[Exception] = TypeError
) -> int:
    """``axis`` as a Python int. JAX indexes a shape with such an argument, so anything else
    (None, a tuple, a float) is refused there with a ``TypeError`` (``error`` overrides the
    class where JAX's indexing raises another one)."""
    try:
        return operator.index(axis)
    except TypeError:
        raise error(f"{fun_name}: {what} must be an integer, got {axis!r}") from None


def moved_axis(fun_name: str, axis: Any) -> int:
    """An axis that JAX hands to ``moveaxis``: a one-element sequence is that axis, a longer or
    empty one is its ``ValueError`` (one source for one destination) and anything else that is
    not an integer its ``TypeError``."""
    if isinstance(axis, (tuple, list)):
        if len(axis) != 1:
            raise ValueError(f"{fun_name}: the axis argument names one axis, got {tuple(axis)}")
        axis = axis[0]
    return int_axis(fun_name, axis)
