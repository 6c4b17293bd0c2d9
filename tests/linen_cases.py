"""Cases of ``trellax.nn``'s lifted transforms, layers and module API checked against Flax 0.12.8:
the same code runs on both sides.

``tools/gen_golden_linen.py`` runs every case with ``flax.linen``/``jax`` and writes
``tests/golden/linen.json``; ``tests/test_nn_linen_golden.py`` runs it with ``trellax.nn``/
``trellax``. A case is ``build(ns)`` returning a tree (dicts, lists, tuples, arrays, strings):
typically the variables of ``init`` from fixed keys and outputs of ``apply``, so that parameter
values (same key, same parameters) and outputs are both compared. ``ns`` has ``nn``, ``jnp``,
``jax`` (``jax`` or ``trellax``), ``random`` and ``x(shape, seed)`` (deterministic NumPy data).
This module imports only NumPy.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

CASES: dict[str, Callable[[Any], Any]] = {}


def case(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    CASES[fn.__name__] = fn
    return fn


def data(shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    return (
        np.random.default_rng(seed + 11 * len(shape) + sum(shape))
        .standard_normal(shape)
        .astype(np.float32)
    )


def flatten(tree: Any, prefix: str = "") -> dict[str, Any]:
    """``{path: leaf}``: dict keys and sequence indices joined by ``/``; arrays become NumPy
    arrays, everything else its ``str``."""
    out: dict[str, Any] = {}
    if isinstance(tree, Mapping):
        for k in sorted(tree, key=str):
            out.update(flatten(tree[k], f"{prefix}/{k}"))
    elif (
        isinstance(tree, list | tuple)
        and not hasattr(tree, "_fields")
        and type(tree).__name__ != "PartitionSpec"
    ):
        for i, v in enumerate(tree):
            out.update(flatten(v, f"{prefix}/{i}"))
    elif hasattr(tree, "shape") and hasattr(tree, "dtype"):
        out[prefix or "/"] = np.asarray(tree)
    elif tree is None or isinstance(tree, bool | int | float | str):
        out[prefix or "/"] = tree
    else:
        out[prefix or "/"] = str(tree)
    return out


def _key(ns: Any, seed: int = 0) -> Any:
    return ns.random.PRNGKey(seed)


# -- lifted transforms ---------------------------------------------------------------------------


@case
def vmap_dense_split(ns: Any) -> Any:
    nn = ns.nn
    model = nn.vmap(nn.Dense, variable_axes={"params": 0}, split_rngs={"params": True})(4)
    x = ns.x((3, 2, 5))
    v = model.init(_key(ns), x)
    return {"vars": v, "out": model.apply(v, x)}


@case
def vmap_broadcast_params_in_axes(ns: Any) -> Any:
    nn = ns.nn

    class M(nn.Module):
        @nn.compact
        def __call__(self, x: Any, y: Any) -> Any:
            f = nn.vmap(
                lambda mdl, a, b: mdl(a) * b,
                variable_axes={"params": None},
                split_rngs={"params": False},
                in_axes=(1, None),
                out_axes=0,
            )
            return f(nn.Dense(3), x, y)

    x, y = ns.x((2, 4, 5)), ns.x((3,), 1)
    v = M().init(_key(ns, 1), x, y)
    return {"vars": v, "out": M().apply(v, x, y)}


@case
def jit_siblings_and_dropout(ns: Any) -> Any:
    nn = ns.nn

    class M(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            a = nn.jit(nn.Dense)(3)(x)
            b = nn.jit(nn.Dense)(3)(x)
            d = nn.jit(nn.Dropout)(0.5, deterministic=False)(x)
            return a, b, d

    x = ns.x((2, 5))
    out, v = M().init_with_output({"params": _key(ns), "dropout": _key(ns, 3)}, x)
    again = M().apply(v, x, rngs={"dropout": _key(ns, 4)})
    return {"vars": v, "out": out, "again": again}


@case
def jit_method_decorator(ns: Any) -> Any:
    nn = ns.nn

    class M(nn.Module):
        @nn.jit
        @nn.compact
        def __call__(self, x: Any) -> Any:
            return nn.Dense(2)(nn.Dense(3)(x))

    x = ns.x((2, 5))
    v = M().init(_key(ns, 2), x)
    return {"vars": v, "out": M().apply(v, x)}


@case
def remat_dense_grad(ns: Any) -> Any:
    nn = ns.nn

    class M(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            h = nn.remat(nn.Dense)(4)(x)
            return nn.remat(nn.Dense)(1)(ns.jnp.tanh(h))

    x = ns.x((3, 5))
    v = M().init(_key(ns), x)
    g = ns.jax.grad(lambda p: ns.jnp.sum(M().apply({"params": p}, x) ** 2))(v["params"])
    return {"vars": v, "grad": g}


@case
def scan_lstm_broadcast(ns: Any) -> Any:
    nn = ns.nn

    class M(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            cell = nn.scan(
                nn.LSTMCell,
                variable_broadcast="params",
                split_rngs={"params": False},
                in_axes=1,
                out_axes=1,
            )(4)
            carry = cell.initialize_carry(ns.random.PRNGKey(1), x[:, 0].shape)
            return cell(carry, x)

    x = ns.x((2, 6, 3))
    out, v = M().init_with_output(_key(ns), x)
    return {"vars": v, "out": out, "apply": M().apply(v, x)}


@case
def scan_stacked_params_dropout(ns: Any) -> Any:
    nn = ns.nn

    class Body(nn.Module):
        @nn.compact
        def __call__(self, c: Any, x: Any) -> Any:
            return nn.Dense(5)(c), nn.Dropout(0.5, deterministic=False)(x) + c[0, 0]

    model = nn.scan(
        Body, variable_axes={"params": 0}, split_rngs={"params": True, "dropout": True}
    )()
    c, x = ns.x((2, 5)), ns.x((4, 2, 5), 1)
    rngs = {"params": _key(ns), "dropout": _key(ns, 2)}
    out, v = model.init_with_output(rngs, c, x)
    again = model.apply(v, c, x, rngs={"dropout": _key(ns, 5)})
    return {"vars": v, "out": out, "again": again}


@case
def scan_reverse_carry_counter(ns: Any) -> Any:
    nn = ns.nn

    def body(mdl: Any, c: Any, x: Any) -> Any:
        n = mdl.variable("counter", "n")
        n.value = n.value + 1
        y = nn.Dense(3, name="d")(x) + c
        return y, y * n.value

    class M(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            self.variable("counter", "n", lambda: ns.jnp.zeros((), ns.jnp.int32))
            f = nn.scan(
                body,
                variable_broadcast="params",
                variable_carry="counter",
                split_rngs={"params": False},
                reverse=True,
                unroll=2,
            )
            return f(self, ns.jnp.zeros((3,)), x)

    x = ns.x((5, 3))
    v = M().init(_key(ns), x)
    out, upd = M().apply(v, x, mutable=["counter"])
    return {"vars": v, "out": out, "counter": upd}


@case
def scan_broadcast_arg_and_length(ns: Any) -> Any:
    nn = ns.nn

    def body(mdl: Any, c: Any, x: Any, w: Any) -> Any:
        return mdl(c) * w + x, c

    class M(nn.Module):
        @nn.compact
        def __call__(self, xs: Any, w: Any) -> Any:
            f = nn.scan(
                body,
                variable_broadcast="params",
                split_rngs={"params": False},
                in_axes=(0, nn.broadcast),
                length=4,
            )
            return f(nn.Dense(2), ns.jnp.ones((2,)), xs, w)

    xs, w = ns.x((4, 2)), ns.x((2,), 3)
    v = M().init(_key(ns), xs, w)
    return {"vars": v, "out": M().apply(v, xs, w)}


@case
def remat_scan_layers(ns: Any) -> Any:
    nn = ns.nn

    class Block(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            return ns.jnp.tanh(nn.Dense(4)(x))

    model = nn.remat_scan(Block, lengths=(2, 3))()
    x = ns.x((2, 4))
    v = model.init(_key(ns), x)
    return {"vars": v, "out": model.apply(v, x)}


@case
def map_variables_transform(ns: Any) -> Any:
    nn = ns.nn

    class M(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            masked = nn.map_variables(
                nn.Dense,
                "params",
                trans_in_fn=lambda p: (
                    {"params": {**p["params"], "kernel": ns.jnp.triu(p["params"]["kernel"])}}
                    if "kernel" in p.get("params", {})
                    else p
                ),
                init=True,
            )
            return masked(3)(x)

    x = ns.x((2, 3))
    v = M().init(_key(ns), x)
    return {"vars": v, "out": M().apply(v, x)}


@case
def cond_switch_init_both(ns: Any) -> Any:
    nn = ns.nn

    class M(nn.Module):
        @nn.compact
        def __call__(self, x: Any, pred: Any, idx: Any) -> Any:
            if self.is_initializing():
                self.first(x)
                self.second(x)
            a = nn.cond(pred, lambda m, v: m.first(v), lambda m, v: m.second(v), self, x)
            b = nn.switch(idx, [lambda m, v: m.first(v), lambda m, v: -m.second(v)], self, x)
            return a, b

        def setup(self) -> None:
            self.first = nn.Dense(2)
            self.second = nn.Dense(2)

    x = ns.x((3, 4))
    v = M().init(_key(ns), x, True, 0)
    return {
        "vars": v,
        "t": M().apply(v, x, True, 1),
        "f": M().apply(v, x, False, 0),
        "traced": M().apply(v, x, ns.jnp.asarray(False), ns.jnp.asarray(1)),
    }


@case
def while_loop_carry_vars(ns: Any) -> Any:
    nn = ns.nn

    class M(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            def cond_fn(mdl: Any, c: Any) -> Any:
                return mdl.variables["state"]["acc"] < 3

            def body_fn(mdl: Any, c: Any) -> Any:
                acc = mdl.variable("state", "acc")
                acc.value += 1
                return c * 2.0

            self.variable("state", "acc", lambda: ns.jnp.array(0))
            return nn.while_loop(cond_fn, body_fn, self, x, carry_variables="state")

    x = ns.x((2,))
    v = M().init(_key(ns), x)
    out, upd = M().apply(v, x, mutable="state")
    return {"out": out, "state": upd}


@case
def lifted_grad_vjp_jvp(ns: Any) -> Any:
    nn = ns.nn

    class M(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            dense = nn.Dense(3)

            def f(mdl: Any, x: Any) -> Any:
                return ns.jnp.sum(ns.jnp.sin(mdl(x)))

            val, gx = nn.value_and_grad(f, dense, x)
            gx2 = nn.grad(f, dense, x)
            y, bwd = nn.vjp(lambda mdl, x: mdl(x), dense, x)
            pg, xg = bwd(ns.jnp.ones_like(y))
            tang = {"params": {"kernel": ns.jnp.ones((4, 3)), "bias": ns.jnp.ones((3,))}}
            y2, yt = nn.jvp(lambda mdl, x: mdl(x), dense, (x,), (ns.jnp.zeros_like(x),), tang)
            return val, gx, gx2, y, pg, xg, y2, yt

    x = ns.x((2, 4))
    v = M().init(_key(ns), x)
    return {"vars": v, "out": M().apply(v, x)}


@case
def custom_vjp_module(ns: Any) -> Any:
    nn = ns.nn

    class M(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            def f(mdl: Any, x: Any) -> Any:
                return mdl(x)

            def fwd(mdl: Any, x: Any) -> Any:
                return f(mdl, x), (x, mdl.variables["params"]["kernel"])

            def bwd(res: Any, y_t: Any) -> Any:
                x, k = res
                bias_t = ns.jnp.sum(y_t, 0) * 0.5
                params_t = {"params": {"kernel": x.T @ y_t, "bias": bias_t}}
                return params_t, y_t @ k.T * 2.0

            return nn.custom_vjp(f, forward_fn=fwd, backward_fn=bwd)(nn.Dense(2), x)

    x = ns.x((3, 2))
    v = M().init(_key(ns), x)
    g = ns.jax.grad(lambda p, x: ns.jnp.sum(M().apply({"params": p}, x)), argnums=(0, 1))(
        v["params"], x
    )
    return {"vars": v, "grad": g}


@case
def partitioned_through_vmap_scan(ns: Any) -> Any:
    nn = ns.nn

    class Layer(nn.Module):
        @nn.compact
        def __call__(self, c: Any, x: Any) -> Any:
            k = nn.with_logical_partitioning(nn.initializers.lecun_normal(), ("embed", "mlp"))
            return nn.Dense(3, kernel_init=k)(c), None

    model = nn.scan(
        Layer,
        variable_axes={"params": 0},
        split_rngs={"params": True},
        length=2,
        metadata_params={nn.PARTITION_NAME: "layers"},
    )()
    c = ns.x((1, 3))
    v = model.init(_key(ns), c, None)
    specs = nn.get_partition_spec(v)
    with nn.logical_axis_rules((("embed", "data"), ("mlp", "model"))):
        mesh_axes = nn.logical_to_mesh_axes(("layers", "embed", "mlp"))
        mesh = nn.logical_to_mesh(specs)
    out = model.apply(v, c, None)
    return {
        "vars": nn.unbox(v),
        "specs": specs,
        "mesh_axes": mesh_axes,
        "mesh": mesh,
        "out": out,
        "type": type(v["params"]["Dense_0"]["kernel"]).__name__,
    }


@case
def functional_apply_init(ns: Any) -> Any:
    nn = ns.nn

    class M(nn.Module):
        def setup(self) -> None:
            self.a = nn.Dense(3)
            self.b = nn.Dense(2)

        def __call__(self, x: Any) -> Any:
            return self.b(self.a(x))

    x = ns.x((2, 4))
    v = nn.init(lambda m, x: m.a(x), M())(_key(ns), x)
    out, v2 = nn.init_with_output(lambda m, x: m(x), M())(_key(ns), x)
    y = nn.apply(lambda m, x: m.b(m.a(x)), M())(v2, x)
    return {"v": v, "v2": v2, "out": out, "y": y}


# -- module API ----------------------------------------------------------------------------------


@case
def module_api_unbind_perturb_has_rng(ns: Any) -> Any:
    nn = ns.nn

    class AE(nn.Module):
        def setup(self) -> None:
            self.enc = nn.Dense(3)
            self.dec = nn.Dense(2)

        def __call__(self, x: Any) -> Any:
            h = self.perturb("h", self.enc(x))
            return self.dec(h), self.has_rng("dropout"), self.has_rng("params")

    x = ns.x((2, 2))
    v = AE().init(_key(ns), x)
    enc, enc_vars = AE().bind(v).enc.unbind()
    y = enc.apply(enc_vars, x)
    loss = lambda p, pert: ns.jnp.sum(  # noqa: E731
        AE().apply({"params": p, "perturbations": pert}, x)[0] ** 2
    )
    grads = ns.jax.grad(loss, argnums=1)(v["params"], v["perturbations"])
    flags = AE().apply(v, x, rngs={"dropout": _key(ns, 1)})[1:]
    return {"v": v, "enc_vars": enc_vars, "y": y, "pert_grad": grads, "flags": list(flags)}


@case
def module_api_share_scope_and_name_scope(ns: Any) -> Any:
    nn = ns.nn

    class DenseLoRA(nn.Module):
        base: Any
        rank: int

        def setup(self) -> None:
            nn.share_scope(self, self.base)

        @nn.compact
        def __call__(self, x: Any) -> Any:
            a = self.param("A", nn.initializers.ones_init(), (x.shape[-1], self.rank))
            b = self.param("B", nn.initializers.ones_init(), (self.rank, self.base.features))
            return self.base(x) + x @ a @ b

    class Model(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            return DenseLoRA(nn.Dense(4), rank=2)(x)

    class Scoped(nn.Module):
        @nn.compact_name_scope
        def up(self, x: Any) -> Any:
            return nn.Dense(5)(x)

        @nn.compact_name_scope
        def down(self, x: Any) -> Any:
            return nn.Dense(2)(x)

        def __call__(self, x: Any) -> Any:
            return self.down(self.up(x))

    x = ns.x((1, 3))
    v = Model().init(_key(ns), x)
    w = Scoped().init(_key(ns), x)
    return {
        "lora": v,
        "lora_out": Model().apply(v, x),
        "scoped": w,
        "scoped_out": Scoped().apply(w, x),
    }


@case
def module_api_intercept_and_repr(ns: Any) -> Any:
    nn = ns.nn
    calls: list[str] = []

    def interceptor(next_fun: Any, args: Any, kwargs: Any, context: Any) -> Any:
        calls.append(f"{type(context.module).__name__}.{context.method_name}")
        out = next_fun(*args, **kwargs)
        return out * 2 if context.module.name == "Dense_1" else out

    class M(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            return nn.Dense(2)(nn.Dense(3)(x))

    x = ns.x((1, 3))
    v = M().init(_key(ns), x)
    with nn.intercept_methods(interceptor):
        y = M().apply(v, x)
    return {"y": y, "calls": calls, "repr": repr(nn.Dense(3, use_bias=False))}


@case
def module_api_errors(ns: Any) -> Any:
    nn = ns.nn
    out = {}

    class NotCompact(nn.Module):
        def __call__(self, x: Any) -> Any:
            return nn.Dense(2)(x)

    class Prop(nn.Module):
        @property
        def thing(self) -> Any:
            return self.missing

        def __call__(self, x: Any) -> Any:
            return self.thing

    class BadPost(nn.Module):
        def __post_init__(self) -> None:
            pass

        def __call__(self, x: Any) -> Any:
            return x

    x = ns.x((1, 3))
    for label, thunk in [
        ("assign", lambda: NotCompact().init(_key(ns), x)),
        ("descriptor", lambda: Prop().init(_key(ns), x)),
        ("instance", lambda: nn.Dense.init(_key(ns), x)),
        ("postinit", lambda: BadPost().init(_key(ns), x)),
        ("unbind", lambda: nn.Dense(2).unbind()),
    ]:
        try:
            thunk()
            out[label] = "no error"
        except Exception as e:
            out[label] = type(e).__name__
    return out


# -- recurrent layers ----------------------------------------------------------------------------


def _cell_case(ns: Any, cell: Any, x: Any, **call_kw: Any) -> Any:
    nn = ns.nn
    rnn = nn.RNN(cell, **call_kw.pop("rnn_kw", {}))
    v = rnn.init(_key(ns), x, **call_kw)
    return {"vars": v, "out": rnn.apply(v, x, **call_kw)}


@case
def optimized_lstm_cell(ns: Any) -> Any:
    return _cell_case(ns, ns.nn.OptimizedLSTMCell(4), ns.x((2, 5, 3)))


@case
def mgu_cell(ns: Any) -> Any:
    out = _cell_case(ns, ns.nn.MGUCell(4), ns.x((2, 5, 3)))
    out["no_reset"] = _cell_case(ns, ns.nn.MGUCell(3, reset_gate=False), ns.x((2, 4, 3)))
    return out


@case
def conv_lstm_cell(ns: Any) -> Any:
    return _cell_case(ns, ns.nn.ConvLSTMCell(3, kernel_size=(3,)), ns.x((2, 4, 6, 2)))


@case
def rnn_reverse_seq_lengths_padding(ns: Any) -> Any:
    lengths = ns.jnp.asarray([3, 5])
    x = ns.x((2, 5, 3))
    return _cell_case(
        ns,
        ns.nn.LSTMCell(4),
        x,
        seq_lengths=lengths,
        rnn_kw={"reverse": True, "keep_order": True, "return_carry": True},
    )


@case
def rnn_tuple_outputs_split_rngs(ns: Any) -> Any:
    nn = ns.nn

    class TupleCell(nn.RNNCellBase):
        @nn.compact
        def __call__(self, carry: Any, x: Any) -> Any:
            h = nn.Dense(3)(ns.jnp.concatenate([carry, x], -1))
            return h, (h, nn.Dropout(0.5, deterministic=False)(x))

        @nn.nowrap
        def initialize_carry(self, rng: Any, shape: Any) -> Any:
            return ns.jnp.zeros((*shape[:-1], 3))

        @property
        def num_feature_axes(self) -> int:
            return 1

    rnn = nn.RNN(
        TupleCell(),
        variable_axes={"params": 0},
        variable_broadcast=False,
        split_rngs={"params": True, "dropout": True},
    )
    x = ns.x((2, 4, 3))
    rngs = {"params": _key(ns), "dropout": _key(ns, 1)}
    out, v = rnn.init_with_output(rngs, x)
    return {"vars": v, "out": out}


@case
def bidirectional_seq_lengths(ns: Any) -> Any:
    nn = ns.nn
    model = nn.Bidirectional(nn.RNN(nn.GRUCell(3)), nn.RNN(nn.LSTMCell(3)), return_carry=True)
    x = ns.x((2, 5, 2))
    lengths = ns.jnp.asarray([2, 5])
    v = model.init(_key(ns), x, seq_lengths=lengths)
    return {"vars": v, "out": model.apply(v, x, seq_lengths=lengths)}


# -- layers --------------------------------------------------------------------------------------


@case
def conv_reflect_transpose_int_strides(ns: Any) -> Any:
    nn = ns.nn
    x = ns.x((1, 6, 6, 2))
    conv = nn.Conv(3, (3, 3), padding="REFLECT")
    tconv = nn.ConvTranspose(2, (3, 3), strides=2)
    v1 = conv.init(_key(ns), x)
    v2 = tconv.init(_key(ns, 1), x)
    return {"v1": v1, "y1": conv.apply(v1, x), "v2": v2, "y2": tconv.apply(v2, x)}


@case
def embed_attend_method(ns: Any) -> Any:
    nn = ns.nn
    emb = nn.Embed(5, 3)
    ids = ns.jnp.asarray([[0, 4, 2]])
    v = emb.init(_key(ns), ids)
    q = ns.x((2, 3))
    return {
        "v": v,
        "lookup": emb.apply(v, ids),
        "attend_str": emb.apply(v, q, method="attend"),
        "attend_fn": emb.apply(v, q, method=emb.attend),
        "attend_cls": emb.apply(v, q, method=nn.Embed.attend),
    }


@case
def conv_local(ns: Any) -> Any:
    nn = ns.nn
    x = ns.x((2, 5, 5, 2))
    layer = nn.ConvLocal(3, (3, 3), strides=(2, 1), padding="VALID")
    v = layer.init(_key(ns), x)
    same = nn.ConvLocal(2, (2,), padding="SAME", use_bias=False)
    x1 = ns.x((1, 4, 3))
    w = same.init(_key(ns, 1), x1)
    return {"v": v, "y": layer.apply(v, x), "w": w, "z": same.apply(w, x1)}


@case
def weight_norm_and_spectral_norm(ns: Any) -> Any:
    nn = ns.nn
    x = ns.x((2, 4))
    wn = nn.WeightNorm(nn.Dense(3))
    v = wn.init(_key(ns), x)
    wn2 = nn.WeightNorm(nn.Dense(3), use_scale=False, feature_axes=None)
    v2 = wn2.init(_key(ns), x)
    sn = nn.SpectralNorm(nn.Dense(3), n_steps=2)
    s = sn.init(_key(ns), x, update_stats=False)
    y, upd = sn.apply(s, x, update_stats=True, mutable=["batch_stats"])
    return {
        "v": v,
        "y": wn.apply(v, x),
        "v2": v2,
        "y2": wn2.apply(v2, x),
        "s": s,
        "sy": y,
        "upd": upd,
    }


@case
def batch_apply(ns: Any) -> Any:
    nn = ns.nn
    x = ns.x((2, 3, 4))
    f = nn.BatchApply(lambda a, b: (a.sum(-1), b * 2.0))
    a, b = f(x, ns.x((2, 3, 1), 1))
    g = nn.BatchApply(lambda a: a.reshape(a.shape[0], 2, 2), num_dims=2)
    return {"a": a, "b": b, "g": g(x)}


@case
def tabulate_table(ns: Any) -> Any:
    nn = ns.nn

    class M(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            x = nn.Dense(4)(x)
            x = nn.LayerNorm()(x)  # one collection: Flax orders several by a set
            return nn.Dense(2)(x)

    table = M().tabulate(
        _key(ns), ns.jnp.ones((1, 3)), console_kwargs={"force_terminal": False, "width": 200}
    )
    lines = [line.rstrip() for line in table.split("\n") if line.strip()]
    paths = sorted(M().module_paths(_key(ns), ns.jnp.ones((1, 3))))
    return {"lines": lines, "paths": paths}
