"""``flax.core.lift`` with Flax's signatures: the lifted transforms of ``trellax.nn`` (which
take the same scope functions) with the core's defaults and argument conventions (``jit``'s
module hash argument, ``custom_vjp``'s argument numbers counting the scope)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from trellax._src.nn import lift


def _identity(x: Any) -> Any:
    return x


def map_variables(
    fn: Callable[..., Any],
    mapped_collections: Any,
    map_in_fn: Callable[[Any], Any] = _identity,
    map_out_fn: Callable[[Any], Any] = _identity,
    init: bool = False,
    mutable: bool = False,
    rngs: Any = True,
    variables: Any = True,
) -> Callable[..., Any]:
    """``fn(scope, ...)`` seeing ``map_in_fn`` of the ``mapped_collections`` (their updates
    written back through ``map_out_fn`` when ``mutable``; created inside when ``init``)."""
    return lift.map_variables(
        fn, mapped_collections, map_in_fn, map_out_fn, init, mutable, rngs, variables
    )


def scan(
    fn: Callable[..., Any],
    variable_axes: Mapping[Any, Any] | None = None,
    variable_broadcast: Any = False,
    variable_carry: Any = False,
    split_rngs: Mapping[Any, bool] | None = None,
    in_axes: Any = 0,
    out_axes: Any = 0,
    length: int | None = None,
    reverse: bool = False,
    unroll: int = 1,
    metadata_params: Mapping[Any, Any] | None = None,
    check_constancy_invariants: bool = True,
) -> Callable[..., Any]:
    """``fn(scope, carry, *xs) -> (carry, ys)`` looped over the leading axis of ``xs``.
    ``check_constancy_invariants=False`` is accepted; trellax checks that the broadcast
    variables stay constant either way (docs/nn.md)."""
    return lift.scan(
        fn,
        variable_axes=dict(variable_axes or {}),
        variable_broadcast=variable_broadcast,
        variable_carry=variable_carry,
        split_rngs=dict(split_rngs or {}),
        in_axes=in_axes,
        out_axes=out_axes,
        length=length,
        reverse=reverse,
        unroll=unroll,
        metadata_params=metadata_params,
    )


def custom_vjp(
    fn: Callable[..., Any],
    forward_fn: Callable[..., Any],
    backward_fn: Callable[..., Any],
    grad_vars: Any = "params",
    nondiff_argnums: Sequence[int] = (),
) -> Callable[..., Any]:
    """``fn(scope, *args)`` with a custom VJP; ``nondiff_argnums`` count the scope as 0."""
    shifted = tuple(i - 1 for i in nondiff_argnums)
    return lift.custom_vjp(fn, forward_fn, backward_fn, grad_vars, shifted)


def jit(
    fn: Callable[..., Any],
    variables: Any = True,
    rngs: Any = True,
    static_argnums: int | Sequence[int] = (),
    static_argnames: str | Sequence[str] = (),
    donate_argnums: int | Sequence[int] = (),
    device: Any = None,
    backend: str | None = None,
) -> Callable[..., Any]:
    """``fn(scope, module_hash, *args)`` compiled once per ``module_hash`` (a hashable
    identity of the function's configuration), mutability and phase (init or apply)."""
    del donate_argnums, device, backend  # one CPU device, no buffers to donate
    nums = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)
    # the compiled function does not take the module hash: its arguments move down by one
    compiled = lift.CompiledJit(tuple(i - 1 for i in nums if i > 1), static_argnames)

    def wrapper(scope: Any, module_hash: Any, *args: Any, **kwargs: Any) -> Any:
        def body(inner: Any, *a: Any, **k: Any) -> Any:
            return fn(inner, module_hash, *a, **k)

        lifted = lift.jit(body, variables, rngs, compiled=compiled)
        return lifted(scope, scope.name, module_hash, *args, **kwargs)

    return wrapper
