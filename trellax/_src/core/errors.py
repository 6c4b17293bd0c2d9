"""Errors that teach: each says what went wrong and what to do instead.

Every class documents a failing snippet and its fix. Tracer errors come from values that have no
data while a function is traced by ``jit``/``eval_shape``/``make_jaxpr``; promotion errors
(``TypePromotionError``) live in ``trellax.dtypes``.
"""

from __future__ import annotations

from typing import Any


def _describe(tracer: Any) -> str:
    aval = getattr(tracer, "aval", None)
    return f"the traced value {aval}" if aval is not None else "a traced value"


def _array_with_shape(tracer: Any) -> str:
    """JAX's words for a tracer: ``traced array with shape int32[]`` (its type, no weak mark)."""
    aval = getattr(tracer, "aval", None)
    if aval is None or not hasattr(aval, "dtype"):
        return "a traced value"
    return f"traced array with shape {aval.dtype.name}[{','.join(map(str, aval.shape))}]"


_CASTS = {"float()": "float", "complex()": "complex", "int()": "int"}


class TrellaxTypeError(TypeError):
    """Base of trellax's TypeErrors about traced values."""


class ConcretizationTypeError(TrellaxTypeError):
    """A traced value was used where a concrete Python value is needed.

    Failing::

        @trellax.jit
        def f(x):
            return float(x) * 2  # x has no value while f is traced

    Fix: keep computing with arrays (``x * 2``), or make the argument static:
    ``jit(f, static_argnums=0)`` (then every new value retraces).
    """

    def __init__(self, tracer: Any = None, context: str = "") -> None:
        if isinstance(tracer, str) and not context:
            super().__init__(tracer)
            return
        where = f" in {context}" if context else ""
        cast = _CASTS.get(context)
        hint = (
            f" If trying to convert the data type of a value, try using `x.astype({cast})` instead."
            if cast
            else ""
        )
        super().__init__(
            f"Abstract tracer value encountered where concrete value is expected{where}: "
            f"{_describe(tracer)}. Inside jit, arrays have a shape and dtype but no values. "
            "Keep the computation in trellax operations, or mark the argument static with "
            f"jit(..., static_argnums=...).{hint}"
        )


class TracerBoolConversionError(ConcretizationTypeError):
    """Python control flow on a traced value.

    Failing::

        @trellax.jit
        def f(x):
            if x > 0:
                return x
            return -x

    Fix: ``trellax.numpy.where(x > 0, x, -x)`` (both branches computed), or
    ``trellax.lax.cond(x > 0, lambda x: x, lambda x: -x, x)``.
    """

    def __init__(self, tracer: Any) -> None:
        TypeError.__init__(
            self,
            f"Attempted boolean conversion of {_array_with_shape(tracer)}. It is "
            f"{_describe(tracer)}, met by an `if`, `while`, `and`, `or`, `not` or bool(); inside "
            "jit the value is unknown. Use "
            "trellax.numpy.where(cond, x, y) to select elementwise, or trellax.lax.cond / "
            "trellax.lax.while_loop for control flow, or make the argument static.",
        )


class TracerIntegerConversionError(ConcretizationTypeError):
    """A traced value used as a Python int (``range(x)``, ``hex(x)``, an index into a list);
    ``int(x)`` raises its base class, as in JAX.

    Failing: ``jit(lambda x, n: x[:operator.index(n)])(x, 3)``. Fix: make ``n`` static
    (``static_argnums=1``) or use ``trellax.lax.dynamic_slice`` (``trellax.lax.fori_loop`` for
    ``for i in range(n)``).
    """

    def __init__(self, tracer: Any) -> None:
        TypeError.__init__(
            self,
            f"The __index__() method was called on {_array_with_shape(tracer)}. It is "
            f"{_describe(tracer)}, used as a Python int; Python ints must be known while tracing: make the argument static (static_argnums/static_argnames) "
            "or use trellax operations that take arrays (e.g. lax.dynamic_slice; for a loop "
            "whose trip count is traced, `for i in range(n)`, use lax.fori_loop).",
        )


class TracerArrayConversionError(TrellaxTypeError):
    """``np.asarray(tracer)``: NumPy functions cannot run on traced values.

    Failing: ``jit(lambda x: np.sin(x))(x)``. Fix: ``trellax.numpy.sin(x)``.
    """

    def __init__(self, tracer: Any) -> None:
        super().__init__(
            f"The numpy.ndarray conversion method __array__() was called on {_describe(tracer)}. "
            "NumPy functions cannot be applied to traced arrays inside jit: use the "
            "trellax.numpy function of the same name instead."
        )


class UnexpectedTracerError(TrellaxTypeError):
    """A tracer escaped the function being traced (stored in a global, a list, ``self``...).

    Failing::

        saved = []

        @trellax.jit
        def f(x):
            saved.append(x)
            return x

        f(1.0)
        saved[0] + 1  # the trace is over: this tracer has no value

    Fix: return values from the traced function instead of storing them on the side.
    """

    def __init__(self, tracer: Any, message: str | None = None) -> None:
        if message is not None:  # another misuse of a tracer, explained by the caller
            super().__init__(message)
            return
        super().__init__(
            f"Encountered an unexpected tracer: {_describe(tracer)} was created inside a traced "
            "function whose trace has ended (it leaked, e.g. through a global, a closure or an "
            "attribute: global state the function changed). Return values from the traced "
            f"function instead of storing them.{_origin(tracer)}\nTo catch the leak earlier, "
            "use the trellax.checking_leaks() context manager (or set check_tracer_leaks)."
        )


def _origin(tracer: Any) -> str:
    """Where a tracer was created, when its trace recorded it (``tracer_origin``)."""
    describe = getattr(getattr(tracer, "_trace", None), "tracer_origin", None)
    where = describe(tracer) if describe is not None else None
    return "" if not where else "\n" + str(where).rstrip("\n")


class JAXIndexError(IndexError):
    """The base of trellax's index errors (JAX's name), an :class:`IndexError`."""


class NonConcreteBooleanIndexError(JAXIndexError):
    """A boolean mask with a traced value was used as an index (its result shape is unknown).

    Failing: ``jit(lambda x: x[x > 0])(x)``. Fix: ``trellax.numpy.where(x > 0, x, 0)``, or
    ``x[trellax.numpy.nonzero(x > 0, size=n, fill_value=0)]`` with a static size.
    """

    def __init__(self, tracer: Any) -> None:
        super().__init__(
            f"Array boolean indices must be concrete; got {_describe(tracer)}. A boolean mask "
            "gives a result whose shape depends on its values, which are unknown while tracing. "
            "Use trellax.numpy.where(mask, x, fill) instead, or nonzero(mask, size=...) for a "
            "static size."
        )


class NonHashableStaticArgumentError(ValueError):
    """A static argument of a jitted function must be hashable (it is part of the cache key).

    Failing: ``jit(f, static_argnums=1)(x, [1, 2])``. Fix: pass a tuple, ``(1, 2)``.
    """
