"""Arguments of custom functions (``custom_jvp``, ``custom_vjp``, ``custom_vmap``): keyword
arguments resolved to positions as JAX resolves them, and attribute forwarding to the decorated
function, and JAX's check of a ``custom_vjp`` ``fwd`` rule's primal output."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Any

from trellax._src.core.core import ShapedArray
from trellax._src.tree.tree_util import PyTreeDef, tree_unflatten


def _name(f: Any) -> str:
    return getattr(f, "__name__", type(f).__name__)


def _positional_range(fun: Callable[..., Any]) -> tuple[int, int] | None:
    """How many positional arguments ``fun`` takes without binding help: (required, at most),
    or ``None`` when its signature needs :meth:`inspect.Signature.bind` (keyword-only
    parameters without defaults, or no signature to read)."""
    try:
        params = list(inspect.signature(fun).parameters.values())
    except (TypeError, ValueError):
        return None
    required, most = 0, 0
    for p in params:
        if p.kind is p.VAR_POSITIONAL:
            most = 1 << 30
        elif p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            most += 1
            required += p.default is p.empty
        elif p.kind is p.KEYWORD_ONLY and p.default is p.empty:
            return None
    return required, most


def resolve_args(
    fun: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    kind: str,
    cache: dict[str, Any],
) -> tuple[Any, ...]:
    """``args`` and ``kwargs`` as positional arguments of ``fun``, as JAX's custom functions
    take them: defaults filled in; a keyword-only argument given, or a binding that fails,
    raises ``TypeError`` naming the ``kind`` (``custom_jvp``...) of decorated function.
    ``cache`` (the custom function's own dict) keeps the signature's positional range so that
    a plain positional call costs no binding."""
    if not kwargs:
        if "range" not in cache:
            cache["range"] = _positional_range(fun)
        span = cache["range"]
        if span is not None and span[0] <= len(args) <= span[1]:
            return args
    name = _name(fun)
    if isinstance(fun, functools.partial):
        fun = _opaque  # a partial's signature is opaque, as in JAX
    try:
        bound = inspect.signature(fun).bind(*args, **kwargs)
        bound.apply_defaults()
        passed = [k for k in bound.kwargs if k in kwargs]
        if passed:
            raise TypeError(
                "The following keyword arguments could not be resolved to positions: "
                + ", ".join(passed)
            )
    except TypeError as e:
        raise TypeError(
            f"The input arguments to the {kind}-decorated function {name} could not be "
            f"resolved to positional-only arguments. Binding failed with the error:\n{e}"
        ) from e
    return tuple(bound.args)


def _opaque(*args: Any, **kwargs: Any) -> None:
    """The signature given to a ``functools.partial``: anything binds."""


def forward_attr(self: Any, name: str) -> Any:
    """``__getattr__`` of a custom function: as JAX's, attributes it lacks are the decorated
    function's (``f.def_vmap`` of a ``custom_vjp`` over a ``custom_vmap``); ``fun`` is the
    function itself."""
    if name.startswith("__") or name in ("_fun", "_sig_cache"):
        raise AttributeError(name)
    fun = self.__dict__.get("_fun", self.__dict__.get("fun"))
    if fun is None:
        raise AttributeError(name)
    return fun if name == "fun" else getattr(fun, name)


def check_fwd_primal_out(
    fwd: str,
    name: str,
    tree: PyTreeDef,
    avals: Sequence[ShapedArray],
    expected: tuple[PyTreeDef, Sequence[ShapedArray]],
) -> None:
    """JAX's check of a ``fwd`` rule's primal output against the primal function's, made when
    the function was traced before (in a jaxpr): the same tree, then the same shapes/dtypes."""
    want_tree, want_avals = expected

    head = (
        f"Custom VJP fwd rule {fwd} for function {name} must produce a pair (list or tuple of "
        "length two) where the first element represents the primal output (equal to the output "
        f"of the custom_vjp-decorated function {name}) and the second element represents "
        "residuals (i.e. values stored from the forward pass for use on the backward pass), but "
        "instead the fwd rule output's first element had"
    )
    if tree != want_tree:
        raise TypeError(
            f"{head} container/pytree structure:\n    {_shown(tree, avals)}\nwhile the "
            f"custom_vjp-decorated function {name} had output container/pytree structure:\n"
            f"    {_shown(want_tree, want_avals)}."
        )
    if any(a.shape != b.shape or a.dtype != b.dtype for a, b in zip(avals, want_avals)):
        raise TypeError(
            f"{head} shapes/dtypes of:\n    {_shown(tree, avals)}\nwhile the custom_vjp-decorated "
            f"function {name} had output shapes/dtypes of:\n    {_shown(want_tree, want_avals)}"
        )


def _short(a: ShapedArray) -> str:
    return f"{a.dtype.name}[{','.join(map(str, a.shape))}]"


def _shown(t: PyTreeDef, avs: Sequence[ShapedArray]) -> str:
    """A rule output's structure with each leaf as ``dtype[shape]`` (the check messages)."""
    return str(tree_unflatten(t, [_short(a) for a in avs])).replace("'", "")


def check_jvp_primal_out(
    rule: str,
    name: str,
    tree: PyTreeDef,
    avals: Sequence[ShapedArray],
    expected: tuple[PyTreeDef, Sequence[ShapedArray]],
) -> None:
    """JAX's check of a ``custom_jvp`` rule's primal output against the function's, made when
    the function was traced before (a staged call under ``jit``/``scan``): the same tree, then
    the same shapes/dtypes. Without it a rule returning more outputs than the function was
    silently cut to the function's count."""
    want_tree, want_avals = expected

    head = (
        f"Custom JVP rule {rule} for function {name} must produce a pair (list or tuple of length "
        "two) where the first element represents the primal output (equal in value to the output "
        f"of the custom_jvp-decorated function {name}, and in particular"
    )
    if tree != want_tree:
        raise TypeError(
            f"{head} of the same container/pytree structure), but instead the JVP rule output's "
            f"first element had container/pytree structure:\n    {_shown(tree, avals)}\nwhile "
            f"the custom_jvp-decorated function {name} had output container/pytree structure:\n"
            f"    {_shown(want_tree, want_avals)}."
        )
    if any(a.shape != b.shape or a.dtype != b.dtype for a, b in zip(avals, want_avals)):
        raise TypeError(
            f"{head} with leaves of the same shape/dtype), but instead the JVP rule output's "
            f"first element had shapes/dtypes of:\n    {_shown(tree, avals)}\nwhile the "
            f"custom_jvp-decorated function {name} had output shapes/dtypes of:\n"
            f"    {_shown(want_tree, want_avals)}"
        )
