"""``trellax.numpy.vectorize``: a function of scalars (or of the core shapes a gufunc
``signature`` names) mapped with ``vmap`` over the broadcast leading axes of its arguments.

As in JAX: the function is traced once per call (not called per element); ``excluded`` holds
positions and keyword names passed through unmapped (non-negative integers or strings, checked
when the wrapper is made); a positional ``None`` is excluded by itself (refused at a position
the signature gives core dimensions); keyword arguments that are not excluded are dropped, as
JAX's wrapper drops them; a signature may name several outputs (the function then returns a
tuple), and each output's core shape is checked against the sizes the inputs fixed; an axis of
size 1 in one argument is not mapped for that argument; with ``jax_numpy_rank_promotion`` other
than ``"allow"``, arguments of different batch ranks (scalars aside) raise or warn. Error
classes and texts are JAX's.
"""

from __future__ import annotations

import functools
import re
import warnings
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any

import numpy as np

from trellax._src.api.vmap import vmap
from trellax._src.config import settings as _config
from trellax._src.numpy import shapes
from trellax._src.numpy.creation import asarray

CoreDims = tuple[str, ...]

_NAME = r"\w+"
_CORE = rf"\((?:{_NAME}(?:,{_NAME})*)?\)"
_SIDE = rf"{_CORE}(?:,{_CORE})*"
_SIGNATURE_RE = re.compile(rf"^{_SIDE}->{_SIDE}$")
_RANK_DOC = "https://docs.jax.dev/en/latest/rank_promotion_warning.html"


def parse_signature(signature: str) -> tuple[list[CoreDims], list[CoreDims]]:
    """The input and output core dimensions of a gufunc signature such as ``(m,n),(n)->(m)``."""
    compact = re.sub(r"\s+", "", signature)
    if not _SIGNATURE_RE.match(compact):
        raise ValueError(f"not a valid gufunc signature: {signature}")
    sides = compact.split("->")
    ins, outs = (
        [tuple(re.findall(_NAME, group)) for group in re.findall(r"\([^)]*\)", side)]
        for side in sides
    )
    return ins, outs


def _fix_sizes(
    sizes: dict[str, int], shape: tuple[int, ...], core: CoreDims, context: str, is_input: bool
) -> None:
    """Checks one argument's (or output's) core shape against ``sizes``, adding new names."""
    if is_input and len(shape) < len(core):
        raise ValueError(
            f"input with shape {shape!r} does not have enough dimensions for all core "
            f"dimensions {core!r} {context}"
        )
    if not is_input and len(shape) != len(core):
        raise ValueError(
            f"output shape {shape!r} does not match core dimensions {core!r} {context}"
        )
    for name, size in zip(core, shape[len(shape) - len(core) :]):
        if sizes.setdefault(name, size) != size:
            raise ValueError(
                f"inconsistent size for core dimension {name!r}: {size!r} vs "
                f"{sizes[name]!r} {context}"
            )


def _bind_excluded(
    fun: Callable[..., Any],
    excluded: Collection[int | str],
    args: Sequence[Any],
    kwargs: dict[str, Any],
) -> tuple[Callable[..., Any], list[Any]]:
    """``fun`` with the excluded positional and keyword arguments bound, and the remaining
    positional arguments (keyword arguments not excluded are dropped, as JAX drops them)."""
    fixed = [
        (i, args[i]) for i in sorted(e for e in excluded if isinstance(e, int)) if i < len(args)
    ]
    named = {k: v for k, v in kwargs.items() if k in excluded}
    rest = [a for i, a in enumerate(args) if i not in excluded]
    if not fixed and not named:
        return fun, rest

    def bound(*mapped: Any) -> Any:
        call = list(mapped)
        for i, value in fixed:
            call.insert(i, value)
        return fun(*call, **named)

    return bound, rest


def _checking_outputs(
    fun: Callable[..., Any], sizes: dict[str, int], outs: list[CoreDims], context: str
) -> Callable[..., Any]:
    """``fun`` whose results are checked against the signature's output core dimensions."""

    def checked(*args: Any) -> Any:
        out = fun(*args)
        if len(outs) > 1 and not isinstance(out, tuple):
            raise TypeError(
                f"output must be a tuple when multiple outputs are expected, got: {out!r}\n{context}"
            )
        results = out if isinstance(out, tuple) else (out,)
        if len(results) != len(outs):
            raise TypeError(
                f"wrong number of output arguments: expected {len(outs)!r}, got "
                f"{len(results)!r} {context}"
            )
        seen = dict(sizes)
        for r, core in zip(results, outs):
            _fix_sizes(seen, tuple(np.shape(r)), core, context, is_input=False)
        return out

    return checked


def _check_ranks(args: list[Any], ins: list[CoreDims], signature: str | None) -> None:
    mode = _config.state().rank_promotion
    if mode == "allow":
        return
    ranks = {a.ndim - len(core) for a, core in zip(args, ins) if a.ndim != 0}
    if len(ranks) <= 1:
        return
    message = (
        f"operands with shapes {[tuple(a.shape) for a in args]} require rank promotion for "
        f"jnp.vectorize function with signature {signature}. Set the jax_numpy_rank_promotion "
        f"config option to 'allow' to disable this message; for more information, see {_RANK_DOC}."
    )
    if mode == "raise":
        raise ValueError(message)
    warnings.warn(message, stacklevel=4)


def _expand(result: Any, axes: list[int]) -> Any:
    if not axes:
        return result
    if isinstance(result, tuple):
        return tuple(shapes.expand_dims(r, axes) for r in result)
    return shapes.expand_dims(result, axes)


class vectorize:
    """``pyfunc`` mapped over the leading (broadcast) axes of its arguments; with
    ``signature``, the trailing core axes it names are passed whole (see the module
    docstring)."""

    def __init__(
        self,
        pyfunc: Callable[..., Any],
        *,
        excluded: Iterable[int | str] = frozenset(),
        signature: str | None = None,
    ) -> None:
        excluded = frozenset(excluded) if not isinstance(excluded, (set, frozenset)) else excluded
        if any(not isinstance(e, (str, int)) for e in excluded):
            raise TypeError(
                "jax.numpy.vectorize can only exclude integer or string arguments, but "
                f"excluded={excluded!r}"
            )
        if any(isinstance(e, int) and e < 0 for e in excluded):
            raise ValueError(f"excluded={excluded!r} contains negative numbers")
        self.pyfunc = pyfunc
        self.excluded = excluded
        self.signature = signature
        functools.update_wrapper(self, pyfunc)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        context = f"on vectorized function with excluded={self.excluded!r} and signature={self.signature!r}"
        fun, rest = _bind_excluded(self.pyfunc, self.excluded, args, kwargs)
        outs: list[CoreDims] | None = None
        if self.signature is not None:
            ins, outs = parse_signature(self.signature)
        else:
            ins = [()] * len(rest)
        nones = {i for i, a in enumerate(rest) if a is None}
        if nones:
            if any(i < len(ins) and ins[i] != () for i in nones):
                raise ValueError(
                    f"Cannot pass None at locations {nones} with signature={self.signature!r}"
                )
            fun, rest = _bind_excluded(fun, nones, rest, {})
            ins = [core for i, core in enumerate(ins) if i not in nones]
        arrays = [asarray(a) for a in rest]
        if len(arrays) != len(ins):
            raise TypeError(
                f"wrong number of positional arguments: expected {len(ins)!r}, got "
                f"{len(arrays)!r} {context}"
            )
        sizes: dict[str, int] = {}
        for a, core in zip(arrays, ins):
            _fix_sizes(sizes, tuple(a.shape), core, context, is_input=True)
        batch_shapes = [tuple(a.shape[: a.ndim - len(core)]) for a, core in zip(arrays, ins)]
        batch = np.broadcast_shapes(*batch_shapes) if batch_shapes else ()
        if outs is not None:
            fun = _checking_outputs(fun, sizes, outs, context)
        _check_ranks(arrays, ins, self.signature)
        # an argument's batch axes of size 1 are squeezed out and not mapped for it; an axis no
        # argument maps is put back on the result
        squeezed = []
        filled = []
        for a, own in zip(arrays, batch_shapes):
            filled.append((1,) * (len(batch) - len(own)) + own)
            ones = tuple(i for i, n in enumerate(own) if n == 1)
            squeezed.append(shapes.squeeze(a, ones) if ones else a)
        mapped = fun
        unmapped: list[int] = []
        for axis in reversed(range(len(batch))):
            in_axes = tuple(None if f[axis] == 1 else 0 for f in filled)
            if all(i is None for i in in_axes):
                unmapped.append(axis)
            else:
                mapped = vmap(mapped, in_axes)
        return _expand(mapped(*squeezed), sorted(unmapped))
