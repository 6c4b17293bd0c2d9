"""optax 0.2.8's ``contrib.muon`` and ``contrib.galore``: optimizers of matrices.

- Muon (Jordan et al., 2024): momentum (Nesterov by default, bias-corrected) whose matrix is
  replaced by an approximation of its orthogonal polar factor ``U V^T``: the matrix is scaled to
  a norm at most 1 (Frobenius, spectral, or the AOL / Schatten rescalings inside the first
  iteration), then ``ns_steps`` odd polynomial iterations ``X <- a X + (b A + c A²) X`` with
  ``A = X X^H`` (on the wide orientation). The step is scaled by ``sqrt(max(1, fan_out/fan_in))``
  (or to a consistent RMS); leaves that are not matrices get AdamW. Weight dimension numbers
  choose which axes are the fan-in (reduction) and fan-out (output) of higher-rank weights; the
  remaining axes are batch axes.
- GaLore (Zhao et al., 2024): the base optimizer (Adam by default) runs on gradients projected to
  ``rank`` dimensions by the leading singular vectors of the gradient (left ones for tall
  matrices, right ones for wide), recomputed every ``update_proj_gap`` steps; its steps are
  projected back and scaled by ``scale``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import trellax.numpy as jnp
from trellax import lax
from trellax._src.api.vmap import vmap
from trellax._src.optim.aliases import adamw
from trellax._src.optim.base import (
    GradientTransformation,
    bias_correction,
    cast_tree,
    chain,
    init_empty_state,
    safe_increment,
    update_moment,
    zero_count,
    zeros_like_tree,
)
from trellax._src.optim.transforms import (
    add_decayed_weights,
    scale_by_adam,
    scale_by_learning_rate,
)
from trellax._src.optim.wrappers import MaskedNode, partition
from trellax.tree_util import tree_flatten, tree_map, tree_structure, tree_transpose

_STANDARD = (3.4445, -4.775, 2.0315)
#: the per-step coefficients of Dion's schedule (Ahn et al., 2025)
_DION = (
    (4.0848, -6.8946, 2.927),
    (3.9505, -6.3029, 2.6377),
    (3.7418, -5.5913, 2.3037),
    (2.8769, -3.1427, 1.2046),
    (2.8366, -3.0525, 1.2012),
)
_PRESETS: dict[str, Any] = {"standard": _STANDARD, "dion": _DION}
_PRECONDITIONINGS = ("frobenius", "spectral", "aol", "schatten")


class MuonDimensionNumbers(NamedTuple):
    """The reduction (fan-in) and output (fan-out) axes of a weight; others are batch axes."""

    reduction_axis: Sequence[int] | int = 0
    output_axis: Sequence[int] | int = 1


class GaLoreDimensionNumbers(NamedTuple):
    """The reduction and output axes of a weight (together they must be all of its axes)."""

    reduction_axis: Sequence[int] | int = 0
    output_axis: Sequence[int] | int = 1


def _is_dims(x: Any) -> bool:
    return isinstance(x, (MuonDimensionNumbers, GaLoreDimensionNumbers))


def _is_dims_or_none(x: Any) -> bool:
    return x is None or _is_dims(x)


def _axes(ndim: int, spec: Sequence[int] | int) -> tuple[int, ...]:
    return tuple(a % ndim for a in ((spec,) if isinstance(spec, int) else spec))


def _split_axes(x: Any, dims: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return _axes(x.ndim, dims.reduction_axis), _axes(x.ndim, dims.output_axis)


def _fans(x: Any, dims: Any) -> tuple[int, int]:
    red, out = _split_axes(x, dims)
    return math.prod(x.shape[a] for a in red), math.prod(x.shape[a] for a in out)


def _matrix_views(
    x: Any, dims: Any, what: str, batched: bool
) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
    """Functions taking ``x``-shaped arrays to ``(batch,) fan_in x fan_out`` and back."""
    if x.ndim < 2:
        raise ValueError(f"{what} needs parameters of rank 2 or more, got shape {x.shape}")
    red, out = _split_axes(x, dims)
    if set(red) & set(out):
        raise ValueError(
            f"The reduction axes {red} and output axes {out} of {dims!r} overlap (shape {x.shape})"
        )
    rest = tuple(a for a in range(x.ndim) if a not in red and a not in out)
    if rest and not batched:
        raise ValueError(
            f"{what}: the reduction axes {red} and output axes {out} must cover every axis of "
            f"shape {x.shape}"
        )
    order = rest + red + out
    back = tuple(sorted(range(x.ndim), key=lambda i: order[i]))
    sizes = [x.shape[a] for a in order]
    flat = [math.prod(x.shape[a] for a in grp) for grp in (red, out)]
    if batched:
        flat = [math.prod(x.shape[a] for a in rest), *flat]

    def to_matrix(y: Any) -> Any:
        return y.transpose(order).reshape(flat)

    def from_matrix(y: Any) -> Any:
        return y.reshape(sizes).transpose(back)

    return to_matrix, from_matrix


# ------------------------------------------------------------------- Newton-Schulz / Muon


def _ns_step(x: Any, c: Any) -> Any:
    a = x @ x.T.conj()
    return c[0] * x + (c[1] * a + c[2] * a @ a) @ x


def _rescaled_first_step(x: Any, c: Any, kind: str, eps: Any) -> Any:
    """The first iteration with the Gram matrix's rescaling (AOL: each row by the root of its
    absolute row sum in ``A``; Schatten: by the root of ``A``'s Frobenius norm)."""
    if kind == "aol":
        a = x @ x.T.conj()
        d = jnp.expand_dims(lax.rsqrt(jnp.clip(jnp.abs(a).sum(axis=-1), min=eps)), -1)
        x, a = x * d, a * d * d.transpose(-1, -2)
    else:
        a = x @ x.T
        d = jnp.expand_dims(
            lax.rsqrt(jnp.clip(jnp.linalg.norm(a, ord="fro", axis=(-2, -1)), min=eps)), (0, -1)
        )
        x, a = x * d, a * d**2
    return c[0] * x + (c[1] * a + c[2] * a @ a) @ x


def orthogonalize_via_newton_schulz(
    x: Any,
    ns_coeffs: Any,
    ns_steps: int = 5,
    preconditioning: str = "frobenius",
    eps: Any = 1e-8,
    dimension_numbers: MuonDimensionNumbers | None = None,
) -> Any:
    """The approximate orthogonal factor of a matrix (or of each matrix of a weight described by
    ``dimension_numbers``) by Newton-Schulz iterations with ``ns_coeffs`` (``(3,)``, or one row
    per step)."""
    if x.ndim != 2 and not isinstance(dimension_numbers, MuonDimensionNumbers):
        raise ValueError(
            f"Orthogonalization needs a matrix or weight dimension numbers, got shape {x.shape} "
            f"and dimension_numbers={dimension_numbers!r}."
        )
    if x.ndim == 2:
        dimension_numbers = MuonDimensionNumbers(reduction_axis=0, output_axis=1)
    coeffs = jnp.asarray(ns_coeffs)
    if coeffs.ndim > 2 or coeffs.shape[-1] != 3:
        raise ValueError(
            f"Newton-Schulz coefficients must have shape (3,) or (n, 3), got {coeffs.shape}"
        )
    if preconditioning not in _PRECONDITIONINGS:
        raise ValueError(f"Unknown preconditioning {preconditioning}")

    def one(m: Any) -> Any:
        wide = m.shape[0] <= m.shape[1]
        m = m if wide else m.T
        if preconditioning == "frobenius":
            m = m / (jnp.linalg.norm(m, ord="fro") + eps)
        elif preconditioning == "spectral":
            m = m / (jnp.linalg.norm(m, ord=2) + eps)
        c = coeffs.astype(m.dtype)
        rows = [c] * int(ns_steps) if c.ndim == 1 else [c[k] for k in range(c.shape[0])]
        for k, row in enumerate(rows):
            if k == 0 and preconditioning in ("aol", "schatten"):
                m = _rescaled_first_step(m, row, preconditioning, 1e-8)
            else:
                m = _ns_step(m, row)
        return m if wide else m.T

    assert dimension_numbers is not None
    to_matrix, from_matrix = _matrix_views(x, dimension_numbers, "Muon", batched=True)
    return from_matrix(vmap(one)(to_matrix(x)))


class MuonState(NamedTuple):
    """The step, the momentum and the Newton-Schulz coefficients used."""

    count: Any
    mu: Any
    ns_coeffs: Any


def _resolve(dims: Any, tree: Any) -> Any:
    return dims(tree) if callable(dims) else dims


def _coefficients(ns_coeffs: Any, ns_steps: int) -> Any:
    c = jnp.asarray(ns_coeffs)
    if c.ndim > 2 or c.shape[-1] != 3:
        raise ValueError(f"ns_coeffs must have shape (3,) or (n, 3), got {c.shape}")
    if c.ndim == 2:
        if c.shape[0] > ns_steps:
            raise ValueError(f"Not enough coeffs to perform {ns_steps} steps")
        c = c[-ns_steps:]
    return c


def scale_by_muon(
    ns_coeffs: Any = _STANDARD,
    ns_steps: int = 5,
    beta: Any = 0.95,
    eps: Any = 1e-8,
    mu_dtype: Any = None,
    *,
    nesterov: bool = True,
    adaptive: bool = False,
    preconditioning: str = "frobenius",
    weight_dimension_numbers: Any = None,
) -> GradientTransformation:
    """Muon's scaling of matrices (no learning rate); ``adaptive`` multiplies each result by
    its inner product with the momentum."""
    mu_dtype = None if mu_dtype is None else jnp.dtype(mu_dtype)

    def init_fn(params: Any) -> MuonState:
        return MuonState(
            count=zero_count(),
            mu=zeros_like_tree(params, mu_dtype),
            ns_coeffs=_coefficients(ns_coeffs, ns_steps),
        )

    def update_fn(updates: Any, state: MuonState, params: Any = None) -> Any:
        del params
        dims = _resolve(weight_dimension_numbers, updates)
        mu = update_moment(updates, state.mu, beta, 1)
        count = safe_increment(state.count)
        if nesterov:
            mu_hat = tree_map(
                lambda m, g: beta * m + (1 - beta) * g,
                bias_correction(mu, beta, safe_increment(count)),
                bias_correction(updates, beta, count),
            )
        else:
            mu_hat = bias_correction(mu, beta, count)
        steps = tree_map(
            lambda m, d: orthogonalize_via_newton_schulz(
                m, state.ns_coeffs, ns_steps, preconditioning, eps, d
            ),
            mu_hat,
            dims,
            is_leaf=_is_dims,
        )
        if adaptive:
            steps = tree_map(lambda m, o: jnp.sum(m.conj() * o) * o, mu_hat, steps)
        return steps, MuonState(count=count, mu=cast_tree(mu, mu_dtype), ns_coeffs=state.ns_coeffs)

    return GradientTransformation(init_fn, update_fn)


def scale_by_shape(
    weight_dimension_numbers: Any = None, consistent_rms: Any = None
) -> GradientTransformation:
    """Scales each matrix step by ``sqrt(max(1, fan_out / fan_in))``, or with
    ``consistent_rms`` by ``sqrt(max(fan_in, fan_out)) * consistent_rms``."""

    def scaled(u: Any, d: Any) -> Any:
        fan_in, fan_out = _fans(u, d)
        if consistent_rms is not None:
            return jnp.sqrt(jnp.maximum(fan_in, fan_out)) * consistent_rms * u
        return jnp.sqrt(jnp.maximum(1, fan_out / fan_in)) * u

    def update_fn(updates: Any, state: Any, params: Any = None) -> Any:
        del params
        dims = _resolve(weight_dimension_numbers, updates)
        return tree_map(scaled, updates, dims, is_leaf=_is_dims), state

    return GradientTransformation(init_empty_state, update_fn)


def muon(
    learning_rate: Any,
    ns_coeffs: Any = _STANDARD,
    ns_steps: int = 5,
    beta: Any = 0.95,
    eps: Any = 1e-8,
    weight_decay: Any = 0.0,
    weight_decay_mask: Any = None,
    mu_dtype: Any = None,
    *,
    nesterov: bool = True,
    adaptive: bool = False,
    preconditioning: str = "frobenius",
    adam_b1: Any = 0.9,
    adam_b2: Any = 0.999,
    adam_eps_root: Any = 0.0,
    adam_weight_decay: Any = 0.0,
    adam_learning_rate: Any = None,
    muon_weight_dimension_numbers: Any = None,
    consistent_rms: Any = None,
) -> GradientTransformation:
    """Muon on the matrices (or the leaves given weight dimension numbers; ``None`` marks an
    AdamW leaf), AdamW on the rest (``adam_learning_rate`` defaults to ``learning_rate``).
    ``ns_coeffs`` may name a preset: ``"standard"`` or ``"dion"``."""
    adam_lr = learning_rate if adam_learning_rate is None else adam_learning_rate
    if isinstance(ns_coeffs, str):
        if ns_coeffs not in _PRESETS:
            raise ValueError(f"Unknown ns_coeff preset string: {ns_coeffs}")
        ns_coeffs = _PRESETS[ns_coeffs]
    given = muon_weight_dimension_numbers

    def labels(params: Any) -> Any:
        if given is None:
            return tree_map(lambda x: "muon" if x.ndim == 2 else "adam", params)
        dims = _resolve(given, params)
        return tree_map(
            lambda d, sub: tree_map(lambda _: "adam" if d is None else "muon", sub),
            dims,
            params,
            is_leaf=_is_dims_or_none,
        )

    def dims_of(params: Any) -> Any:
        dims = MuonDimensionNumbers() if given is None else _resolve(given, params)
        use = tree_map(lambda label: label == "muon", labels(params))
        return tree_map(
            lambda d, sub: tree_map(lambda keep: d if keep else MaskedNode(), sub),
            dims,
            use,
            is_leaf=lambda x: _is_dims_or_none(x) or isinstance(x, MaskedNode),
        )

    on_matrices = chain(
        scale_by_muon(
            ns_coeffs=ns_coeffs,
            ns_steps=ns_steps,
            beta=beta,
            eps=eps,
            mu_dtype=mu_dtype,
            nesterov=nesterov,
            adaptive=adaptive,
            preconditioning=preconditioning,
            weight_dimension_numbers=dims_of,
        ),
        scale_by_shape(weight_dimension_numbers=dims_of, consistent_rms=consistent_rms),
        add_decayed_weights(weight_decay, weight_decay_mask),
        scale_by_learning_rate(learning_rate),
    )
    on_rest = adamw(
        learning_rate=adam_lr,
        b1=adam_b1,
        b2=adam_b2,
        eps=eps,
        eps_root=adam_eps_root,
        weight_decay=adam_weight_decay,
        mu_dtype=mu_dtype,
        nesterov=nesterov,
    )
    return partition({"muon": on_matrices, "adam": on_rest}, param_labels=labels)


# ---------------------------------------------------------------------------------- GaLore


class GaLoreState(NamedTuple):
    """The step, the base optimizer's state (over the projected gradients) and the projector
    of each leaf (an empty matrix for leaves left full)."""

    count: Any
    base_optimizer_state: Any
    projector: Any


def scale_by_galore(
    rank: int = 128,
    update_proj_gap: int = 200,
    scale: float = 1.0,
    base_optimizer: GradientTransformation | None = None,
    weight_dimension_numbers: Any = None,
) -> GradientTransformation:
    """GaLore around ``base_optimizer`` (``scale_by_adam()`` by default). By default the
    matrices are projected; a :class:`GaLoreDimensionNumbers` applies to every leaf of rank 2 or
    more; a tree (or a function of the params giving one) chooses per leaf (``None``: full)."""
    inner = scale_by_adam() if base_optimizer is None else base_optimizer
    if not isinstance(rank, int):
        raise TypeError(f"`rank` must be an int, got {type(rank)}")
    if rank <= 0:
        raise ValueError(f"`rank` must be positive, got {rank}")

    def dims_for(params: Any) -> Any:
        spec = weight_dimension_numbers
        if spec is None:
            return tree_map(lambda p: GaLoreDimensionNumbers() if p.ndim == 2 else None, params)
        if callable(spec):
            return spec(params)
        if _is_dims(spec):
            return tree_map(lambda p: spec if p.ndim >= 2 else None, params)
        return spec

    def geometry(p: Any, d: Any) -> tuple[Any, Any, int, bool]:
        to_matrix, from_matrix = _matrix_views(p, d, "GaLore", batched=False)
        m, n = _fans(p, d)
        return to_matrix, from_matrix, min(rank, m, n), m >= n

    def shapes(p: Any, d: Any) -> tuple[Any, Any]:
        if d is None:
            return jnp.zeros((0, 0), p.dtype), jnp.zeros_like(p)
        _, _, r, left = geometry(p, d)
        m, n = _fans(p, d)
        if left:
            return jnp.zeros((m, r), p.dtype), jnp.zeros((r, n), p.dtype)
        return jnp.zeros((n, r), p.dtype), jnp.zeros((m, r), p.dtype)

    def pair_tree(tree: Any, pairs: Any) -> tuple[Any, Any]:
        out: tuple[Any, Any] = tree_transpose(tree_structure(tree), tree_structure((0, 0)), pairs)
        return out

    def init_fn(params: Any) -> GaLoreState:
        if not tree_flatten(params)[0]:
            return GaLoreState(zero_count(), inner.init(params), params)
        pairs = tree_map(shapes, params, dims_for(params), is_leaf=_is_dims_or_none)
        projectors, proxies = pair_tree(params, pairs)
        return GaLoreState(zero_count(), inner.init(proxies), projectors)

    def update_fn(updates: Any, state: GaLoreState, params: Any = None) -> Any:
        del params
        refresh = state.count % update_proj_gap == 0
        dims = dims_for(updates)

        def project(g: Any, proj: Any, d: Any) -> tuple[Any, Any]:
            if d is None:
                return g, proj
            to_matrix, _, r, left = geometry(g, d)
            g2 = to_matrix(g)

            def fresh() -> Any:
                u, _, vh = jnp.linalg.svd(g2.astype(jnp.float32), full_matrices=False)
                basis = u[:, :r] if left else vh[:r, :].T
                return basis.astype(g.dtype)

            new = lax.cond(refresh, fresh, lambda: proj)
            return (new.T @ g2 if left else g2 @ new), new

        def back(low: Any, proj: Any, g: Any, d: Any) -> Any:
            if d is None:
                return low
            _, from_matrix, _, left = geometry(g, d)
            full = proj @ low if left else low @ proj.T
            return (scale * from_matrix(full)).astype(g.dtype)

        pairs = tree_map(project, updates, state.projector, dims, is_leaf=_is_dims_or_none)
        low, projectors = pair_tree(updates, pairs)
        steps, inner_state = inner.update(low, state.base_optimizer_state, None)
        full = tree_map(back, steps, projectors, updates, dims, is_leaf=_is_dims_or_none)
        return full, GaLoreState(safe_increment(state.count), inner_state, projectors)

    return GradientTransformation(init_fn, update_fn)


def galore(
    learning_rate: Any,
    rank: int = 128,
    update_proj_gap: int = 200,
    scale: float = 1.0,
    base_optimizer: GradientTransformation | None = None,
    weight_decay: Any = 0.0,
    mask: Any = None,
    weight_dimension_numbers: Any = None,
) -> GradientTransformation:
    """GaLore: :func:`scale_by_galore`, decoupled weight decay, then the learning rate."""
    return chain(
        scale_by_galore(
            rank=rank,
            update_proj_gap=update_proj_gap,
            scale=scale,
            base_optimizer=base_optimizer,
            weight_dimension_numbers=weight_dimension_numbers,
        ),
        add_decayed_weights(weight_decay, mask),
        scale_by_learning_rate(learning_rate),
    )
