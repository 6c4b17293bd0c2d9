"""optax's ``projections``: Euclidean projections of a pytree (taken as one vector) onto boxes,
balls, spheres, the simplex, half-spaces, hyperplanes and lines.

Each function returns the point of the set nearest to its input, with the input's structure.
The simplex and the l1 sets work on the tree's leaves raveled into one vector.
"""

from __future__ import annotations

from typing import Any

import trellax.numpy as jnp
from trellax._src.derived.flatten_util import ravel_pytree
from trellax._src.optim.tree_math import norm as _norm
from trellax._src.optim.tree_math import vdot as _vdot
from trellax.tree_util import tree_map


def projection_non_negative(tree: Any) -> Any:
    """Every entry below zero set to zero."""
    return tree_map(lambda x: jnp.maximum(x, 0), tree)


def projection_box(tree: Any, lower: Any, upper: Any) -> Any:
    """Every entry clipped to ``[lower, upper]``: trees of ``tree``'s structure (a scalar bound
    only for a single-array ``tree``, as in optax, else ``tree_map``'s ``ValueError``)."""
    return tree_map(jnp.clip, tree, lower, upper)


def projection_hypercube(tree: Any, scale: Any = 1) -> Any:
    """The box ``[0, scale]``."""
    return projection_box(tree, lower=0, upper=scale)


def _simplex_vector(v: Any, scale: Any) -> Any:
    """The nearest point of ``{p >= 0, sum(p) == scale}`` to the vector ``v``: ``v - t``
    clipped at zero, ``t`` found from the entries sorted in decreasing order."""
    desc = -jnp.sort(-v)
    excess = jnp.cumsum(desc) - scale
    counts = jnp.arange(1, v.shape[0] + 1, dtype=v.dtype)
    support = jnp.sum(desc - excess / counts > 0)
    threshold = excess[support - 1] / support.astype(v.dtype)
    return jnp.maximum(v - threshold, 0)


def projection_simplex(tree: Any, scale: Any = 1) -> Any:
    """The scaled simplex: entries non-negative and summing to ``scale``."""
    flat, unravel = ravel_pytree(tree)
    return unravel(_simplex_vector(flat, scale))


def projection_l1_sphere(tree: Any, scale: Any = 1) -> Any:
    """The sphere ``||p||_1 == scale``: the simplex projection of the magnitudes, with the
    input's signs."""
    flat, unravel = ravel_pytree(tree)
    return unravel(jnp.sign(flat) * _simplex_vector(jnp.abs(flat), scale))


def projection_l1_ball(tree: Any, scale: Any = 1) -> Any:
    """The ball ``||p||_1 <= scale``: the input when inside, else its l1-sphere projection."""
    flat, unravel = ravel_pytree(tree)
    inside = jnp.sum(jnp.abs(flat)) <= scale
    on_sphere = jnp.sign(flat) * _simplex_vector(jnp.abs(flat), scale)
    return unravel(jnp.where(inside, flat, on_sphere))


def projection_l2_sphere(tree: Any, scale: Any = 1) -> Any:
    """The sphere ``||p||_2 == scale``: the input rescaled."""
    factor = scale / _norm(tree)
    return tree_map(lambda x: x * factor, tree)


def projection_l2_ball(tree: Any, scale: Any = 1) -> Any:
    """The ball ``||p||_2 <= scale``: the input when inside, else rescaled onto the sphere."""
    size = _norm(tree)
    factor = jnp.where(size <= scale, 1.0, scale / size)
    return tree_map(lambda x: x * factor, tree)


def projection_linf_ball(tree: Any, scale: Any = 1) -> Any:
    """The ball ``max |p| <= scale``: every entry clipped to ``[-scale, scale]``."""
    return tree_map(lambda x: jnp.clip(x, -scale, scale), tree)


def projection_hyperplane(x: Any, a: Any, b: Any) -> Any:
    """The hyperplane ``<a, p> == b``."""
    step = (_vdot(a, x) - b) / _vdot(a, a)
    return tree_map(lambda xi, ai: xi - step * ai, x, a)


def projection_halfspace(x: Any, a: Any, b: Any) -> Any:
    """The half-space ``<a, p> <= b``: the input when inside, else its hyperplane projection."""
    step = jnp.maximum(_vdot(a, x) - b, 0) / _vdot(a, a)
    return tree_map(lambda xi, ai: xi - step * ai, x, a)


def projection_vector(x: Any, a: Any) -> Any:
    """The line spanned by ``a``: ``<x, a> / <a, a> * a``."""
    coef = _vdot(x, a) / _vdot(a, a)
    return tree_map(lambda ai: coef * ai, a)
