"""JAX's rematerialization policies: callables ``policy(prim, *avals, **params) -> bool`` saying
whether a primitive's result may be saved for the backward pass.

``trellax.checkpoint`` asks the policy, in reverse mode, about the equations of its body's
linearization that run in the forward pass and whose results the linear part reads
(``_src/checkpoint/partial_eval.py``): a value the policy allows is kept, the others are
recomputed in the backward pass from what is kept. A policy never changes a value or a
derivative, only what is held between the passes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Policy = Callable[..., bool]


def everything_saveable(prim: Any, *avals: Any, **params: Any) -> bool:
    """Save every residual."""
    return True


def nothing_saveable(prim: Any, *avals: Any, **params: Any) -> bool:
    """Save nothing: recompute everything."""
    return False


def dots_saveable(prim: Any, *avals: Any, **params: Any) -> bool:
    """Save the results of matrix products (``dot_general``)."""
    return getattr(prim, "name", None) == "dot_general"


checkpoint_dots = dots_saveable


def dots_with_no_batch_dims_saveable(prim: Any, *avals: Any, **params: Any) -> bool:
    """Save the results of matrix products without batch dimensions."""
    if getattr(prim, "name", None) != "dot_general":
        return False
    numbers = params.get("dimension_numbers")
    if numbers is None:
        return True
    (_, _), (lhs_batch, rhs_batch) = numbers
    return not lhs_batch and not rhs_batch


checkpoint_dots_with_no_batch_dims = dots_with_no_batch_dims_saveable


def _named(params: dict[str, Any]) -> Any:
    return params.get("name")


def save_anything_except_these_names(*names_not_to_save: str) -> Policy:
    """Save everything except values named (``checkpoint_name``) with one of these names."""
    excluded = frozenset(names_not_to_save)

    def policy(prim: Any, *avals: Any, **params: Any) -> bool:
        return getattr(prim, "name", None) != "name" or _named(params) not in excluded

    return policy


def save_any_names_but_these(*names_not_to_save: str) -> Policy:
    """Save named values except those with one of these names."""
    excluded = frozenset(names_not_to_save)

    def policy(prim: Any, *avals: Any, **params: Any) -> bool:
        return getattr(prim, "name", None) == "name" and _named(params) not in excluded

    return policy


def save_only_these_names(*names_which_can_be_saved: str) -> Policy:
    """Save only the values named with one of these names."""
    allowed = frozenset(names_which_can_be_saved)

    def policy(prim: Any, *avals: Any, **params: Any) -> bool:
        return getattr(prim, "name", None) == "name" and _named(params) in allowed

    return policy


def save_from_both_policies(policy_1: Policy, policy_2: Policy) -> Policy:
    """Save what either policy saves."""

    def policy(prim: Any, *avals: Any, **params: Any) -> bool:
        return bool(policy_1(prim, *avals, **params) or policy_2(prim, *avals, **params))

    return policy


def offload_dot_with_no_batch_dims(offload_src: str, offload_dst: str) -> Policy:
    """JAX offloads such products to host memory; here (one host) it saves them."""
    return dots_with_no_batch_dims_saveable


def save_and_offload_only_these_names(
    *,
    names_which_can_be_saved: Any,
    names_which_can_be_offloaded: Any,
    offload_src: str,
    offload_dst: str,
) -> Policy:
    """Save (JAX: or offload to the host) only the values with one of these names."""
    return save_only_these_names(*names_which_can_be_saved, *names_which_can_be_offloaded)
