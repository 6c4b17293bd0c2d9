"""Programs under ``checkify`` measured against JAX (``tools/gen_golden_checkify.py`` writes
``tests/golden/checkify.json``; ``tests/test_checkify.py`` compares).

Each case is the text of ``f, *args`` (and ``errors=``, ``vm=True`` for a ``vmap`` of the checked
function) for :func:`run`, which returns what ``Error.get()`` says (or the error raised). They
cover automatic checks (``nan_checks``, ``div_checks``, ``index_checks``) and user checks inside
``cond``/``switch`` branches, ``scan``/``fori_loop``/``while_loop`` bodies and conditions, nested
``jit``, ``custom_jvp``/``custom_vjp`` functions and ``vmap`` (inside and outside), the first
failing iteration, and which error wins when several happen (JAX's rule: per kind of error the
first at run time, then the kind whose check was traced first, user checks before automatic
ones).
"""

from __future__ import annotations

from typing import Any

CASES: dict[str, str] = {
    "plain_sin": "lambda x: jnp.sin(x), inf",
    "cond_nan": "lambda x: lax.cond(x > 0, jnp.sin, lambda v: v, x), inf",
    "cond_nan_false_branch": "lambda x: lax.cond(x < 0, jnp.sin, jnp.cos, x), inf",
    "switch_div": (
        "lambda i, a, b: lax.switch(i, [lambda a,b: a // b, lambda a,b: a % b, lambda a,b: "
        "a+b], a, b), 1, jnp.int32(3), jnp.int32(0)"
    ),
    "scan_nan": (
        "lambda x: lax.scan(lambda c, v: (c, jnp.log(v)), x, jnp.array([1., -1., -2.]))[1], 0."
    ),
    "scan_user_check": (
        'lambda x: lax.scan(lambda c, v: (checkify.check(v > 0, "bad {}", v), (c, v))[1], x, '
        "jnp.array([1., -1., -2.]))[1], 0."
    ),
    "while_nan": (
        "lambda x: lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0]+1, jnp.log(c[1] - 2.)), "
        "(0, x)), 3.5"
    ),
    "while_cond_nan": (
        "lambda x: lax.while_loop(lambda c: jnp.log(c[1]) < 3, lambda c: (c[0]+1, c[1]-1.), (0,"
        " x)), 3.5"
    ),
    "while_user_check": (
        "lambda x: lax.while_loop(lambda c: c[0] < 3, lambda c: (checkify.check(c[1] < 2, "
        '"c={}", c[1]), (c[0]+1, c[1]+1.))[1], (0, x)), 0.5'
    ),
    "fori_nan": "lambda x: lax.fori_loop(0, 4, lambda i, c: jnp.log(c - i), x), 2.5",
    "oob_gather": "lambda x, i: x[i], jnp.arange(3.), 5",
    "oob_gather_neg": "lambda x, i: x[i], jnp.arange(3.), -5",
    "oob_array": "lambda x, i: x[i], jnp.arange(3.), jnp.array([0, 7])",
    "oob_scatter": "lambda x, i: x.at[i].set(1.), jnp.arange(3.), 5",
    "oob_dyn_slice": "lambda x, i: lax.dynamic_slice(x, (i,), (2,)), jnp.arange(3.), 5",
    "oob_in_cond": "lambda x, i: lax.cond(i > 0, lambda: x[i], lambda: x[0]), jnp.arange(3.), 5",
    "jit_inner": "lambda x: jax.jit(jnp.sin)(x), inf",
    "custom_jvp": "lambda x: jax.nn.relu(jnp.sin(x)), inf",
    "custom_jvp_log": "cj, -1.",
    "custom_vjp_log": "cv, -1.",
    "vmap_inner": "lambda x: jax.vmap(jnp.log)(x), jnp.array([1., -1., -2.])",
    "vmap_outer": "lambda x: jnp.log(x), jnp.array([1., -1., -2.]), vm=True",
    "vmap_outer_cond": (
        "lambda x: lax.cond(x > -1.5, jnp.log, lambda v: jnp.sqrt(v), x), jnp.array([1., -1., "
        "-2.]), vm=True"
    ),
    "two_errors_order": "lambda x: (jnp.sin(x), jnp.arange(3)[5])[0], inf",
    "user_then_nan": 'lambda x: (checkify.check(x < 0, "user"), jnp.sin(x))[1], inf',
    "nan_only_errs": (
        "lambda x: lax.cond(x > 0, jnp.sin, lambda v: v, x), inf, errors=checkify.nan_checks"
    ),
    "div_only": (
        "lambda a, b: lax.cond(a > 0, lambda: a // b, lambda: a), jnp.int32(3), jnp.int32(0), "
        "errors=checkify.div_checks"
    ),
    "index_only": (
        "lambda x, i: lax.cond(i > 0, lambda: x[i], lambda: x[0]), jnp.arange(3.), 5, "
        "errors=checkify.index_checks"
    ),
    "2d_i_j": "lambda x, i, j: x[i, j], x2, 1, 9",
    "2d_i_oob_j_oob": "lambda x, i, j: x[i, j], x2, 7, 9",
    "2d_col": "lambda x, j: x[:, j], x2, 5",
    "arr_2d": "lambda x, k: x[k], x2, jnp.array([[0, 1], [7, 8]])",
    "arr_2d_both": "lambda x, k, l: x[k, l], x2, jnp.array([0, 1, 2]), jnp.array([0, 5, 6])",
    "dyn_slice_window": "lambda x, i: lax.dynamic_slice(x, (i,), (2,)), jnp.arange(3.), 2",
    "dyn_slice_neg": "lambda x, i: lax.dynamic_slice(x, (i,), (2,)), jnp.arange(3.), -1",
    "dus": "lambda x, i: lax.dynamic_update_slice(x, jnp.ones(2), (i,)), jnp.arange(3.), 2",
    "scatter_add_arr": "lambda x, k: x.at[k].add(1.), jnp.arange(3.), jnp.array([1, 4, 9])",
    "take": "lambda x, k: jnp.take(x, k), jnp.arange(3.), jnp.array([1, 4])",
    "clip_mode": "lambda x, k: x.at[k].get(mode='clip'), jnp.arange(3.), jnp.array([1, 4])",
    "fill_mode": "lambda x, k: x.at[k].get(mode='fill'), jnp.arange(3.), jnp.array([1, 4])",
    "drop_mode_set": (
        "lambda x, k: x.at[k].set(0., mode='drop'), jnp.arange(3.), jnp.array([1, 4])"
    ),
    "vmap_oob": "lambda x, i: x[i], jnp.stack([jnp.arange(3.)]*3), jnp.array([0, 5, 7]), vm=True",
    "scan_oob_iter": (
        "lambda x: lax.scan(lambda c, i: (c, x[i]), 0., jnp.array([0, 4, 5]))[1], jnp.arange(3.)"
    ),
    "scan_nan_then_user": (
        'lambda x: lax.scan(lambda c, v: (c, (checkify.check(v < 2, "big {}", v), '
        "jnp.log(v))[1]), 0., x)[1], jnp.array([1., 3., -1.])"
    ),
    "scan_user_then_nan": (
        'lambda x: lax.scan(lambda c, v: (c, (checkify.check(v < 2, "big {}", v), '
        "jnp.log(v))[1]), 0., x)[1], jnp.array([1., -1., 3.])"
    ),
    "cond_user": (
        'lambda x: lax.cond(x > 0, lambda v: (checkify.check(v < 1, "v {}", v), v)[1], lambda '
        "v: v, x), jnp.float32(2.)"
    ),
    "switch_user": (
        'lambda i, x: lax.switch(i, [lambda v: v, lambda v: (checkify.check(v < 1, "b1 {}", v),'
        " v)[1]], x), 1, jnp.float32(2.)"
    ),
    "vmap_scan_user": (
        'lambda x: lax.scan(lambda c, v: (c, (checkify.check(v < 2, "big {}", v), v)[1]), 0., '
        "x)[1], jnp.array([[1., 3., 5.],[0.,0.,0.],[9.,0.,1.]]), vm=True"
    ),
    "nested_cond_in_scan": (
        "lambda x: lax.scan(lambda c, v: (c, lax.cond(v > 0, jnp.log, lambda u: jnp.sqrt(u), v "
        "- 2.)), 0., x)[1], jnp.array([3., 1., 5.])"
    ),
    "rem_guarded": "lambda a, b: a % b, jnp.int32(3), jnp.int32(0)",
    "floordiv": "lambda a, b: a // b, jnp.int32(3), jnp.int32(0)",
    "lax_div": "lambda a, b: lax.div(a, b), jnp.int32(3), jnp.int32(0)",
    "lax_rem": "lambda a, b: lax.rem(a, b), jnp.int32(3), jnp.int32(0)",
    "jit_in_scan_nan": (
        "lambda x: lax.scan(lambda c, v: (c, jax.jit(jnp.log)(v)), 0., x)[1], jnp.array([1., -1.])"
    ),
    "while_pred_user": (
        'lambda x: lax.while_loop(lambda c: (checkify.check(c < 5, "cond {}", c), c < 10)[1], '
        "lambda c: c + 2., x), jnp.float32(0.)"
    ),
    "grad_inside": "lambda x: jax.grad(lambda v: jnp.sin(v))(x), jnp.float32(jnp.inf)",
    "error_value": "lambda x: jnp.sin(x), jnp.float32(jnp.nan)",
    "a_two_nan_sites": (
        "lambda x: lax.scan(lambda c, v: (c, jnp.log(v - 2.) + jnp.sqrt(2. - v)), 0., x)[1], "
        "jnp.array([3., 1.])"
    ),
    "a2_two_nan_sites": (
        "lambda x: lax.scan(lambda c, v: (c, jnp.log(v - 2.) + jnp.sqrt(2. - v)), 0., x)[1], "
        "jnp.array([1., 3.])"
    ),
    "b_same_aval": (
        'lambda x: lax.scan(lambda c, v: (c, (checkify.check(v < 5, "A {}", v), '
        'checkify.check(v > 0, "B {}", v), v)[2]), 0., x)[1], jnp.array([1., -1., 9.])'
    ),
    "c_diff_aval": (
        'lambda x: lax.scan(lambda c, v: (c, (checkify.check(v < 5, "A {}", '
        'v.astype(jnp.int32)), checkify.check(v > 0, "B {}", v), v)[2]), 0., x)[1], '
        "jnp.array([1., -1., 9.])"
    ),
    "c2_no_payload_vs_payload": (
        'lambda x: lax.scan(lambda c, v: (c, (checkify.check(v < 5, "A"), checkify.check(v > 0,'
        ' "B {}", v), v)[2]), 0., x)[1], jnp.array([1., -1., 9.])'
    ),
    "d_div_then_nan": (
        "lambda x, n: lax.scan(lambda c, v: (c, (jnp.log(v), n // v.astype(jnp.int32))[0]), 0.,"
        " x)[1], jnp.array([1., 0.5, -1.]), jnp.int32(3)"
    ),
    "d2_div_then_nan_order": (
        "lambda x, n: lax.scan(lambda c, v: (c, (n // v.astype(jnp.int32), jnp.log(v))[1]), 0.,"
        " x)[1], jnp.array([1., -1., 0.5]), jnp.int32(3)"
    ),
    "e_cond_branches": (
        "lambda x: lax.scan(lambda c, v: (c, lax.cond(v > 0, lambda u: (checkify.check(u < 5, "
        '"T {}", u), u)[1], lambda u: (checkify.check(u > -5, "F {}", u), u)[1], v)), 0., '
        "x)[1], jnp.array([1., -9., 9.])"
    ),
    "f_top_two": (
        'lambda x: (checkify.check(x > 5, "A {}", x), checkify.check(x > 0, "B {}", x), x)[2], '
        "jnp.float32(-1.)"
    ),
    "g_nan_first_then_user": (
        'lambda x: (jnp.log(x), checkify.check(x > 0, "B {}", x))[0], jnp.float32(-1.)'
    ),
    "h_same_site_twice": (
        'lambda x: lax.scan(lambda c, v: (c, (checkify.check(v > 0, "B {}", v), v)[1]), 0., '
        "x)[1], jnp.array([1., -1., -2.])"
    ),
    "i_fori": (
        'lambda x: lax.fori_loop(0, 5, lambda i, c: (checkify.check(c < 3, "c {} at {}", c, i),'
        " c + 1.)[1], x), jnp.float32(0.)"
    ),
    # a jitted function called twice (one trace, one check code), its second call failing first
    "jit_called_twice": ("lambda x: (pos(x - 5.), pos(x))[0], jnp.float32(-1.)"),
    "jit_called_twice_second_fails": ("lambda x: (pos(x), pos(x - 5.))[0], jnp.float32(2.)"),
    "debug_check_in_scan": (
        'lambda x: lax.scan(lambda c, v: (c, (checkify.debug_check(v > 0, "d {}", v), v)[1]), '
        "0., x)[1], jnp.array([1., -2., -3.])"
    ),
    "vmap_inside_user": (
        'lambda x: jax.vmap(lambda v: (checkify.check(v > 0, "v {}", v), v)[1])(x), '
        "jnp.array([1., -2., -3.])"
    ),
    "fori_vmap_first_iteration": (
        'lambda x: lax.fori_loop(0, 5, lambda i, c: (checkify.check(c < 3., "c {} i {}", c, i), '
        "c + 1.)[1], x), jnp.array([0., 2.5, 7.]), vm=True"
    ),
    "vmap_inside_user_several": (
        'lambda x: jax.vmap(lambda v: (checkify.check(v > 0, "v {}", v), v)[1])(x), '
        "jnp.array([-5., 1., -2., 3.])"
    ),
    "vmap_inside_dynamic_slice_oob": (
        "lambda x, i: jax.vmap(lambda v, j: lax.dynamic_slice(v, (j,), (1,)))(x, i), "
        "jnp.ones((3, 3)), jnp.array([0, 5, 7]), errors=checkify.index_checks"
    ),
    "vmap_while_fixed_trip_count": (
        "lambda x: lax.while_loop(lambda c: c[0] < 4, lambda c: (c[0] + 1, jnp.sqrt(c[1] - 1.)), "
        "(0, x))[1], jnp.array([100., 0.5, 2.]), errors=checkify.nan_checks, vm=True"
    ),
    "float_division_by_zero": (
        "lambda x, y: x / y, jnp.ones(3), jnp.array([1., 0., 1.]), errors=checkify.div_checks"
    ),
    "zero_over_zero_division_first": "lambda x: x / 0., jnp.float32(0.)",
    "remat_body": (
        'lambda x: jax.checkpoint(lambda v: (checkify.check(jnp.all(v > 0), "pos"), v + 1)[1])(x), '
        "jnp.array([0, 2, 3])"
    ),
    "oob_index_matrix": (
        "lambda x, i: x[i], jnp.ones((2, 3)), jnp.array([[0, 1], [1, 7]]), "
        "errors=checkify.index_checks"
    ),
    "cond_index_only_nan_off": (
        "lambda x, i: lax.cond(i > 0, lambda: jnp.log(x[i]), lambda: x[0]), jnp.arange(3.) - 1., 5, "
        "errors=checkify.nan_checks"
    ),
    "user_off_nan_on": (
        'lambda x: (checkify.check(x > 0, "B {}", x), jnp.log(x))[1], jnp.float32(-1.), '
        "errors=checkify.float_checks"
    ),
}


def namespace(M: Any) -> dict[str, Any]:
    """The names the cases use, from ``M`` (JAX's modules or trellax's)."""
    jax, jnp, lax, checkify = M.jax, M.jnp, M.lax, M.checkify

    @jax.custom_jvp
    def cj(x: Any) -> Any:
        return jnp.log(x)

    cj.defjvp(lambda p, t: (cj(p[0]), t[0] / p[0]))

    @jax.custom_vjp
    def cv(x: Any) -> Any:
        return jnp.log(x)

    cv.defvjp(lambda x: (cv(x), x), lambda r, g: (g / r,))

    @jax.jit
    def pos(v: Any) -> Any:
        checkify.check(v > 0, "pos {}", v)
        return v

    def run(f: Any, *args: Any, errors: Any = checkify.all_checks, vm: bool = False) -> list[Any]:
        try:
            g = checkify.checkify(f, errors=errors)
            if vm:
                g = jax.vmap(g)
            err, _ = g(*args)
        except Exception as e:  # the error is the measurement
            return [type(e).__name__, str(e).split("\n")[0]]
        return ["ok", err.get()]

    return {
        "jax": jax,
        "jnp": jnp,
        "lax": lax,
        "checkify": checkify,
        "cj": cj,
        "cv": cv,
        "pos": pos,
        "run": run,
        "inf": jnp.float32(float("inf")),
        "x2": jnp.arange(12.0).reshape(3, 4),
    }


def outcome(name: str, M: Any) -> list[Any]:
    """``[\"ok\", Error.get()]`` or ``[error class, first line]`` of case ``name``."""
    result: list[Any] = eval(f"run({CASES[name]})", namespace(M))
    return result
