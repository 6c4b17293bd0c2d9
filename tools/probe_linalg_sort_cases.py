"""Inputs and cases of the linear-algebra / FFT / sorting / statistics differential probe.

A case is ``(kind, function, args, kwargs)``: ``function`` an expression over ``jnp``/``jax``
(bound to JAX or trellax), ``args`` a tuple of strings, each an input name (``"@m3"``) or a Python
literal, ``kwargs`` the source of a dict literal. ``kind`` says how values compare: ``exact``
(bits, every NaN alike), ``float`` (NaN/inf positions exact, finite values within a dtype
tolerance), ``decomp`` (like float, but a column-wise sign or phase flip is its own class).
``tools/probe_linalg_sort.py`` runs every case eagerly, under ``jit`` and under ``vmap``.
"""

# ruff: noqa: UP031  (the cases are dict-literal sources: % keeps their braces readable)
from __future__ import annotations

import ml_dtypes
import numpy as np

Case = tuple[str, str, tuple[str, ...], str]


def make_inputs() -> dict[str, np.ndarray]:
    """The probe's inputs, built once by the driver and shipped to both sides."""
    rng = np.random.default_rng(24)

    def r(*shape: int, dtype: type = np.float32) -> np.ndarray:
        return rng.standard_normal(shape).astype(dtype)

    def c(*shape: int) -> np.ndarray:
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(np.complex64)

    a = r(3, 3)
    spd = (a @ a.T + 3 * np.eye(3)).astype(np.float32)
    h = c(3, 3)
    herm = (h @ h.conj().T + np.eye(3)).astype(np.complex64)
    x: dict[str, np.ndarray] = {
        "m3": r(3, 3),
        "m3d": r(3, 3, dtype=np.float64),
        "m4c": c(4, 4),
        "m2c128": c(2, 2).astype(np.complex128),
        "sing3": np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]], np.float32),
        "zrow3": np.array([[1, 2, 3], [0, 0, 0], [7, 8, 10]], np.float32),
        "zcol2": np.array([[0, 1], [0, 2]], np.float32),
        "zero3": np.zeros((3, 3), np.float32),
        "neg3": np.array([[0, 1, 0], [1, 0, 0], [0, 0, 2]], np.float32),
        "spd3": spd,
        "nonpd3": np.array([[1, 2, 0], [2, 1, 0], [0, 0, 1]], np.float32),
        "herm3": herm,
        "asym3": np.array([[2, 1, 5], [-3, 1, 0.5], [4, 7, 3]], np.float32),
        "b233": r(2, 3, 3),
        "bspd": np.stack([spd, spd + np.eye(3, dtype=np.float32)]),
        "r35": r(3, 5),
        "r53": r(5, 3),
        "b253": r(2, 5, 3),
        "rank54": (r(5, 2) @ r(2, 4)).astype(np.float32),
        "m0": np.zeros((0, 0), np.float32),
        "b022": np.zeros((0, 2, 2), np.float32),
        "r03": np.zeros((0, 3), np.float32),
        "i3": np.array([[2, 1, 0], [1, 3, 1], [0, 1, 4]], np.int32),
        "h3": r(3, 3, dtype=np.float16),
        "bf3": r(3, 3).astype(ml_dtypes.bfloat16),
        "hspd": spd.astype(np.float16),
        "rhs3": r(3),
        "rhs32": r(3, 2),
        "rhs5": r(5),
        "rhs52": r(5, 2),
        "ts": r(2, 3, 6),
        "ts6": r(2, 3),
        "v3": r(3),
        "v3b": r(3),
        "v5": r(5),
        "v6": r(6),
        "vc3": c(3),
        "vc3b": c(3),
        "vi5": np.array([3, -1, 4, 1, -5], np.int32),
        "v0": np.zeros((0,), np.float32),
        "vnan": np.array([3, np.nan, -0.0, 0.0, -np.inf, 1, np.nan, np.inf, -1, 0.0], np.float32),
        "vneg0": np.array([0.0, -0.0, 0.0, -0.0, 1.0, -1.0], np.float32),
        "vties": np.array([2, 1, 2, 0, 1, 2, 3, 0], np.float32),
        "vtiesi": np.array([2, 1, 2, 0, 1, 2, 3, 0], np.int32),
        "vcs": np.array(
            [1 + 2j, 1 - 1j, 0 + 5j, 1 + 2j, np.nan + 0j, -1 + 0j, 1j * np.nan], np.complex64
        ),
        "vh": r(7, dtype=np.float16),
        "vbf": r(7).astype(ml_dtypes.bfloat16),
        "vb": np.array([True, False, True, True, False]),
        "vu8": np.array([3, 0, 255, 7, 7], np.uint8),
        "s2d": np.where(rng.random((4, 5)) < 0.2, np.nan, np.round(r(4, 5), 1)).astype(np.float32),
        "s3d": np.round(r(2, 3, 4), 1),
        "sorted6": np.array([-1, 0, 0, 2, 5, np.nan], np.float32),
        "sorted5i": np.array([1, 3, 3, 3, 9], np.int32),
        "q3": np.array([0.0, 0.25, 1.0], np.float32),
        "keys2": np.array([[1, 0, 1, 0, 1], [3, 3, 2, 2, 2]], np.int32),
        "seta": np.array([5, 1, 3, 3, 7, 1, 9], np.int32),
        "setb": np.array([3, 4, 5, 5, 10], np.int32),
        "setf": np.array([1.5, np.nan, 2.0, np.nan, 1.5, -0.0, 0.0], np.float32),
        "setfb": np.array([np.nan, 2.0, 0.0], np.float32),
        "u2d": np.array([[1, 2], [1, 2], [0, 5], [1, 2]], np.int32),
        "nz2d": np.array([[0, 1, 0], [2, 0, 3]], np.int32),
        "cnt": np.array([0, 3, 1, 1, 5, 3], np.int32),
        "cntw": np.array([0.5, 1, 2, 3, 4, 0.25], np.float32),
        "hx": np.round(r(20), 2),
        "hy": np.round(r(20), 2),
        "hw": rng.random(20).astype(np.float32),
        "st": np.round(r(3, 6), 2),
        "fw": np.array([1, 2, 1, 3, 1, 1], np.int32),
        "xp": np.array([0, 1, 2, 4], np.float32),
        "fp": np.array([0, 10, -5, 3], np.float32),
        "xq": np.array([-1, 0, 0.5, 1.5, 3, 4, 9, np.nan], np.float32),
        "xpnan": np.array([0, 1, np.nan, 4], np.float32),
        "fpc": np.array([0, 1j, 2, 3 + 3j], np.complex64),
        "pc": np.array([1, -3, 2], np.float32),
        "pc4": np.array([2, 0, -1, 5], np.float32),
        "pcz": np.array([0, 0, 1, -3, 2], np.float32),
        "pcc": np.array([1, 2j, -1], np.complex64),
        "pci": np.array([1, -6, 11, -6], np.int32),
        "px": np.array([0, 1, 2, 3, 4, 5], np.float32),
        "py": np.array([1, 2.9, 9.2, 19, 32.8, 51], np.float32),
        "f8": r(8),
        "f7": r(7),
        "fc6": c(6),
        "fi8": np.arange(8, dtype=np.int32) % 3,
        "fh8": r(8, dtype=np.float16),
        "fbf8": r(8).astype(ml_dtypes.bfloat16),
        "f46": r(4, 6),
        "f234": r(2, 3, 4),
        "fc45": c(4, 5),
        "g1": np.array([1, 4, 9, 16, 25, 36], np.float32),
        "g2": np.round(r(3, 4), 2),
        "gi": np.array([1, 4, 9, 16], np.int32),
    }
    return x


_MATS = ("@m3", "@m3d", "@m4c", "@sing3", "@zrow3", "@neg3", "@b233", "@i3", "@h3", "@bf3")
_EMPTY = ("@m0", "@b022")


def _cases_linalg() -> list[Case]:
    cs: list[Case] = []
    L = "jnp.linalg."
    for m in (*_MATS, *_EMPTY, "@zero3", "@zcol2", "@m2c128"):
        cs += [("float", L + "det", (m,), "{}"), ("float", L + "slogdet", (m,), "{}")]
        cs += [("float", L + "inv", (m,), "{}"), ("float", L + "pinv", (m,), "{}")]
        cs += [("exact", L + "matrix_rank", (m,), "{}")]
        cs += [("float", L + "matrix_power", (m, p), "{}") for p in ("0", "1", "3", "-1", "-2")]
    for m in ("@m3", "@sing3", "@zrow3", "@zero3", "@i3", "@h3", "@bf3"):
        for rhs in ("@rhs3", "@rhs32"):
            cs.append(("float", L + "solve", (m, rhs), "{}"))
    cs.append(("float", L + "solve", ("@b233", "@rhs32"), "{}"))
    cs.append(("float", L + "slogdet", ("@m3",), "{'method': 'qr'}"))
    for m in ("@spd3", "@nonpd3", "@herm3", "@bspd", "@m0", "@hspd", "@asym3", "@zero3"):
        cs.append(("float", L + "cholesky", (m,), "{}"))
        cs.append(("float", L + "cholesky", (m,), "{'upper': True}"))
    for m in ("@spd3", "@nonpd3", "@herm3", "@asym3", "@bspd", "@m0", "@hspd", "@i3"):
        for kw in (
            "{}",
            "{'UPLO': 'U'}",
            "{'symmetrize_input': False}",
            "{'UPLO': 'U', 'symmetrize_input': False}",
        ):
            cs.append(("decomp", L + "eigh", (m,), kw))
        cs.append(("float", L + "eigvalsh", (m,), "{}"))
        cs.append(("float", L + "eigvalsh", (m,), "{'UPLO': 'U'}"))
    for m in ("@m3", "@asym3", "@nonpd3", "@m4c", "@i3", "@m0"):
        cs.append(("decomp", L + "eig", (m,), "{}"))
        cs.append(("decomp", L + "eigvals", (m,), "{}"))
    for m in (
        "@m3",
        "@r35",
        "@r53",
        "@b253",
        "@m4c",
        "@rank54",
        "@sing3",
        "@m0",
        "@r03",
        "@i3",
        "@h3",
        "@spd3",
        "@nonpd3",
    ):
        for kw in (
            "{}",
            "{'full_matrices': False}",
            "{'compute_uv': False}",
            "{'hermitian': True}",
            "{'hermitian': True, 'compute_uv': False}",
        ):
            cs.append(("decomp", L + "svd", (m,), kw))
        cs.append(("float", L + "svdvals", (m,), "{}"))
        for mode in ("'reduced'", "'complete'", "'r'"):
            cs.append(("decomp", L + "qr", (m,), "{'mode': %s}" % mode))
        cs.append(("float", L + "cond", (m,), "{}"))
    for m, b in (
        ("@r53", "@rhs5"),
        ("@r53", "@rhs52"),
        ("@r35", "@rhs3"),
        ("@rank54", "@rhs5"),
        ("@sing3", "@rhs3"),
        ("@m3", "@rhs32"),
        ("@i3", "@rhs3"),
    ):
        for kw in ("{}", "{'rcond': 0.5}", "{'rcond': None}", "{'rcond': -1}"):
            cs.append(("float", L + "lstsq", (m, b), kw))
    for m in ("@rank54", "@sing3", "@zero3"):
        cs += [
            ("exact", L + "matrix_rank", (m,), kw)
            for kw in ("{'rtol': 0.5}", "{'tol': 1.0}", "{'hermitian': True}")
        ]
        cs.append(("float", L + "pinv", (m,), "{'rtol': 0.3}"))
        cs.append(("float", L + "pinv", (m,), "{'hermitian': True}"))
    mords = ("None", "'fro'", "'nuc'", "1", "-1", "2", "-2", "jnp.inf", "-jnp.inf")
    for m in ("@m3", "@r35", "@m4c", "@i3", "@h3", "@bf3", "@b233", "@m0", "@r03", "@sing3"):
        for o in mords:
            cs.append(("float", L + "norm", (m,), "{'ord': %s}" % o))
            cs.append(("float", L + "matrix_norm", (m,), "{'ord': %s}" % o))
        cs.append(("float", L + "norm", (m,), "{'keepdims': True}"))
        cs.append(("float", L + "norm", (m,), "{'ord': 'fro', 'keepdims': True}"))
    for o in ("None", "'fro'", "'nuc'", "1", "-1", "2", "-2", "jnp.inf", "-jnp.inf"):
        cs.append(("float", L + "norm", ("@b233",), "{'ord': %s, 'axis': (0, 2)}" % o))
        cs.append(("float", L + "norm", ("@b233",), "{'ord': %s, 'axis': (2, 1)}" % o))
    vords = ("None", "0", "1", "-1", "2", "-2", "3", "0.5", "jnp.inf", "-jnp.inf")
    for v in ("@v5", "@vc3", "@vi5", "@v0", "@vnan", "@vh", "@vbf", "@vb", "@b233"):
        for o in vords:
            cs.append(("float", L + "norm", (v,), "{'ord': %s, 'axis': -1}" % o))
            cs.append(("float", L + "vector_norm", (v,), "{'ord': %s}" % o))
    cs.append(("float", L + "vector_norm", ("@b233",), "{'axis': (0, 2), 'ord': 1}"))
    cs.append(
        ("float", L + "vector_norm", ("@b233",), "{'axis': None, 'ord': 3, 'keepdims': True}")
    )
    cs.append(("float", L + "norm", ("@b233",), "{}"))
    cs.append(("float", L + "norm", ("@b233",), "{'axis': 1}"))
    cs.append(("float", L + "multi_dot", ("[@m3, @r35, @r53]",), "{}"))
    cs.append(("float", L + "multi_dot", ("[@v3, @m3, @r35, @v5]",), "{}"))
    cs.append(("float", L + "multi_dot", ("[@vc3, @m3]",), "{}"))
    cs.append(
        (
            "float",
            L + "tensorsolve",
            ("jnp.eye(6).reshape(2, 3, 2, 3) + 0.1 * @ts.reshape(2, 3, 2, 3)", "@ts6"),
            "{}",
        )
    )
    cs.append(
        ("float", L + "tensorinv", ("jnp.eye(6).reshape(2, 3, 6) + 0.1 * @ts",), "{'ind': 2}")
    )
    for a, b in (
        ("@v3", "@v3b"),
        ("@vc3", "@vc3b"),
        ("@m3", "@b233"),
        ("@vi5[:3]", "@v3"),
        ("@v3[:2]", "@v3b"),
        ("@v3[:2]", "@v3b[:2]"),
    ):
        cs.append(("float", L + "cross", (a, b), "{}"))
        cs.append(("float", "jnp.cross", (a, b), "{}"))
    for a, b in (
        ("@v3", "@v5"),
        ("@vc3", "@vc3b"),
        ("@vi5", "@v3"),
        ("@m3", "@v3"),
        ("@vb", "@vb"),
    ):
        cs += [("float", f, (a, b), "{}") for f in ("jnp.outer", L + "outer", "jnp.kron")]
    for a, b in (
        ("@v3", "@v3b"),
        ("@vc3", "@vc3b"),
        ("@vc3", "@v3"),
        ("@v3", "@vc3"),
        ("@m3", "@b233"),
        ("@vi5", "@vi5"),
        ("@vb", "@vb"),
        ("@vh[:3]", "@v3"),
    ):
        cs += [
            ("float", f, (a, b), "{}")
            for f in ("jnp.vdot", "jnp.vecdot", L + "vecdot", "jnp.inner", "jnp.dot", "jnp.matmul")
        ]
    for ax in ("2", "1", "0", "([1, 2], [0, 1])", "((0,), (1,))", "([], [])", "[[2], [0]]"):
        cs.append(("float", "jnp.tensordot", ("@b233", "@m3"), "{'axes': %s}" % ax))
    cs.append(("float", "jnp.tensordot", ("@vc3", "@vc3b"), "{'axes': 1}"))
    for spec, args in (
        ("'ij,jk->ik'", ("@m3", "@r35")),
        ("'ij,jk'", ("@i3", "@m3")),
        ("'i,i'", ("@vc3", "@vc3b")),
        ("'ii->i'", ("@m3",)),
        ("'ii'", ("@i3",)),
        ("'bij,bjk->bik'", ("@b233", "@b233")),
        ("'...ij->...ji'", ("@b233",)),
        ("'ij->'", ("@h3",)),
        ("'ij,ij->ij'", ("@bf3", "@h3")),
        ("'i,j->ij'", ("@vi5", "@vb")),
        ("'i,i->'", ("@vb", "@vb")),
    ):
        cs.append(("float", "jnp.einsum", (spec, *args), "{}"))
        cs.append(("float", "jnp.einsum", (spec, *args), "{'preferred_element_type': jnp.float32}"))
    cs.append(
        (
            "float",
            "jnp.einsum",
            ("'ij,jk'", "@i3", "@i3"),
            "{'preferred_element_type': jnp.float32}",
        )
    )
    cs.append(
        ("float", "jnp.einsum", ("'ij,jk'", "@i3", "@i3"), "{'preferred_element_type': jnp.int8}")
    )
    cs.append(("float", "jnp.matmul", ("@i3", "@i3"), "{'preferred_element_type': jnp.float32}"))
    cs.append(("float", "jnp.dot", ("@h3", "@h3"), "{'preferred_element_type': jnp.float32}"))
    cs.append(
        (
            "float",
            "jnp.einsum",
            ("'i,i'", "@vc3", "@vc3b"),
            "{'preferred_element_type': jnp.float32}",
        )
    )
    for f in (
        "lu",
        "lu_factor",
        "qr",
        "schur",
        "hessenberg",
        "expm",
        "sqrtm",
        "polar",
        "det",
        "inv",
        "svd",
        "eigh",
        "cholesky",
    ):
        for m in ("@m3", "@spd3", "@sing3", "@i3"):
            cs.append(("decomp", "jax.scipy.linalg." + f, (m,), "{}"))
    for m in ("@spd3", "@nonpd3"):
        cs.append(
            (
                "float",
                "jax.scipy.linalg.cho_solve",
                ("jax.scipy.linalg.cho_factor(%s)" % m, "@rhs3"),
                "{}",
            )
        )
        cs.append(("float", "jax.scipy.linalg.solve", (m, "@rhs3"), "{'assume_a': 'pos'}"))
    for m in ("@m3", "@sing3", "@zrow3"):
        cs.append(
            (
                "float",
                "jax.scipy.linalg.lu_solve",
                ("jax.scipy.linalg.lu_factor(%s)" % m, "@rhs3"),
                "{}",
            )
        )
        cs.append(("float", "jax.scipy.linalg.solve_triangular", (m, "@rhs3"), "{'lower': True}"))
        cs.append(("float", "jax.scipy.linalg.solve_triangular", (m, "@rhs3"), "{'trans': 1}"))
        cs.append(
            ("float", "jax.scipy.linalg.solve_triangular", (m, "@rhs3"), "{'unit_diagonal': True}")
        )
    return cs


def _cases_fft() -> list[Case]:
    cs: list[Case] = []
    F = "jnp.fft."
    ins1 = ("@f8", "@f7", "@fc6", "@fi8", "@fh8", "@fbf8", "@v0", "@vb", "@f46")
    for f in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"):
        for x in ins1:
            for n in ("None", "4", "5", "11", "1"):
                for norm in ("None", "'backward'", "'ortho'", "'forward'"):
                    if norm != "None" and n not in ("None", "5"):
                        continue
                    cs.append(("float", F + f, (x,), "{'n': %s, 'norm': %s}" % (n, norm)))
            cs.append(("float", F + f, (x,), "{'axis': 0}"))
    for f in ("fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn", "rfftn", "irfftn"):
        for x in ("@f46", "@f234", "@fc45", "@fi8", "@f8"):
            for kw in (
                "{}",
                "{'s': (3, 8)}",
                "{'axes': (0, 1)}",
                "{'axes': (-1, 0)}",
                "{'norm': 'ortho'}",
                "{'norm': 'forward', 's': (5, 5)}",
                "{'axes': (1,)}",
                "{'s': (2, 3, 4), 'axes': (0, 1, 2)}",
            ):
                cs.append(("float", F + f, (x,), kw))
    for f in ("fftfreq", "rfftfreq"):
        for n in ("1", "4", "7", "8"):
            for kw in (
                "{}",
                "{'d': 0.1}",
                "{'d': 2}",
                "{'dtype': jnp.float16}",
                "{'dtype': jnp.float64}",
                "{'d': jnp.float16(0.5)}",
            ):
                cs.append(("exact", F + f, (n,), kw))
    for f in ("fftshift", "ifftshift"):
        for x in ("@f7", "@f46", "@f234", "@vi5"):
            cs.append(("exact", F + f, (x,), "{}"))
            cs.append(("exact", F + f, (x,), "{'axes': 0}"))
            cs.append(("exact", F + f, (x,), "{'axes': (-1,)}"))
    return cs


_SORTIN = (
    "@vnan",
    "@vneg0",
    "@vties",
    "@vtiesi",
    "@vcs",
    "@vh",
    "@vbf",
    "@vb",
    "@vu8",
    "@s2d",
    "@v0",
    "@s3d",
)


def _cases_sort() -> list[Case]:
    cs: list[Case] = []
    for x in _SORTIN:
        for kw in (
            "{}",
            "{'axis': 0}",
            "{'axis': None}",
            "{'descending': True}",
            "{'stable': False}",
            "{'descending': True, 'stable': True}",
        ):
            cs.append(("exact", "jnp.sort", (x,), kw))
            cs.append(("exact", "jnp.argsort", (x,), kw))
        cs.append(("exact", "jnp.sort_complex", (x,), "{}"))
        for k in ("0", "2", "-1"):
            cs.append(("exact", "jnp.partition", (x,), "{'kth': %s}" % k))
            cs.append(("exact", "jnp.argpartition", (x,), "{'kth': %s}" % k))
        for f in ("argmax", "argmin", "nanargmax", "nanargmin"):
            cs.append(("exact", "jnp." + f, (x,), "{}"))
            cs.append(("exact", "jnp." + f, (x,), "{'axis': -1, 'keepdims': True}"))
        for f in ("nonzero", "argwhere", "flatnonzero"):
            cs.append(("exact", "jnp." + f, (x,), "{}"))
            cs.append(("exact", "jnp." + f, (x,), "{'size': 4}"))
            cs.append(("exact", "jnp." + f, (x,), "{'size': 12, 'fill_value': -7}"))
        cs.append(("exact", "jnp.where", (x,), "{'size': 3, 'fill_value': 1}"))
        cs.append(("exact", "jnp.count_nonzero", (x,), "{}"))
        cs.append(("exact", "jax.lax.top_k", (x, "3"), "{}"))
        cs.append(("exact", "jax.lax.top_k", (x, "1"), "{}"))
        cs.append(("exact", "jnp.lexsort", (x,), "{}"))
    cs.append(("exact", "jnp.lexsort", ("@keys2",), "{}"))
    cs.append(("exact", "jnp.lexsort", ("(@vnan, @vneg0[:1] * 0 + @vties[:1])",), "{}"))
    cs.append(("exact", "jnp.lexsort", ("@keys2",), "{'axis': 0}"))
    cs.append(("exact", "jnp.lexsort", ("(@vties, @vnan[:8])",), "{}"))
    for a in ("@sorted6", "@sorted5i", "@vties", "@v0"):
        for v in ("@vnan", "@vtiesi", "2.0", "@s2d", "-0.0", "@v0"):
            for kw in (
                "{}",
                "{'side': 'right'}",
                "{'method': 'sort'}",
                "{'method': 'compare_all'}",
                "{'side': 'right', 'method': 'compare_all'}",
                "{'method': 'scan_unrolled'}",
            ):
                cs.append(("exact", "jnp.searchsorted", (a, v), kw))
    cs.append(
        ("exact", "jnp.searchsorted", ("@vties", "@vtiesi"), "{'sorter': jnp.argsort(@vties)}")
    )
    cs.append(
        (
            "exact",
            "jnp.searchsorted",
            ("@vnan", "@vnan"),
            "{'sorter': jnp.argsort(@vnan), 'side': 'right'}",
        )
    )
    for x in ("@vnan", "@vneg0", "@vtiesi", "@vcs", "@u2d", "@setf", "@v0", "@vb", "@vbf", "@s2d"):
        for kw in (
            "{}",
            "{'return_index': True}",
            "{'return_inverse': True}",
            "{'return_counts': True}",
            "{'return_index': True, 'return_inverse': True, 'return_counts': True}",
            "{'equal_nan': False}",
            "{'axis': 0}",
            "{'axis': 0, 'return_inverse': True}",
            "{'size': 3}",
            "{'size': 9, 'fill_value': 42}",
            "{'size': 9, 'return_index': True, 'return_inverse': True, 'return_counts': True}",
            "{'sorted': False}",
            "{'equal_nan': False, 'return_counts': True}",
        ):
            cs.append(("exact", "jnp.unique", (x,), kw))
        for f in ("unique_values", "unique_counts", "unique_inverse", "unique_all"):
            cs.append(("exact", "jnp." + f, (x,), "{}"))
            cs.append(("exact", "jnp." + f, (x,), "{'size': 8, 'fill_value': 0}"))
    pairs = (
        ("@seta", "@setb"),
        ("@setf", "@setfb"),
        ("@seta", "@setf"),
        ("@vneg0", "@vneg0[::-1]"),
        ("@v0", "@setb"),
        ("@vtiesi", "@vb"),
        ("@u2d", "@setb"),
    )
    for a, b in pairs:
        for f in ("intersect1d", "union1d", "setdiff1d", "setxor1d"):
            for kw in (
                "{}",
                "{'assume_unique': True}",
                "{'size': 6}",
                "{'size': 6, 'fill_value': -3}",
            ):
                if f == "union1d" and "assume" in kw:
                    continue
                cs.append(("exact", "jnp." + f, (a, b), kw))
        cs.append(("exact", "jnp.intersect1d", (a, b), "{'return_indices': True}"))
        cs.append(
            ("exact", "jnp.intersect1d", (a, b), "{'return_indices': True, 'assume_unique': True}")
        )
        for kw in (
            "{}",
            "{'invert': True}",
            "{'assume_unique': True}",
            "{'method': 'sort'}",
            "{'method': 'compare_all'}",
        ):
            cs.append(("exact", "jnp.isin", (a, b), kw))
    for x, bins in (("@vnan", "@sorted6"), ("@hx", "@sorted6"), ("@vtiesi", "@sorted5i")):
        cs.append(("exact", "jnp.digitize", (x, bins), "{}"))
        cs.append(("exact", "jnp.digitize", (x, bins), "{'right': True}"))
        cs.append(("exact", "jnp.digitize", (x, bins + "[::-1]"), "{}"))
    return cs


_METHODS = (
    "linear",
    "lower",
    "higher",
    "midpoint",
    "nearest",
    "inverted_cdf",
    "averaged_inverted_cdf",
    "closest_observation",
    "interpolated_inverted_cdf",
    "hazen",
    "weibull",
    "median_unbiased",
    "normal_unbiased",
)


def _cases_stats() -> list[Case]:
    cs: list[Case] = []
    for x in ("@s2d", "@st", "@vnan", "@vtiesi", "@vh", "@vbf", "@v0", "@s3d", "3.5", "@vb"):
        for f in ("median", "nanmedian"):
            for kw in ("{}", "{'axis': 0}", "{'axis': -1, 'keepdims': True}", "{'axis': (0, 1)}"):
                cs.append(("float", "jnp." + f, (x,), kw))
        for q in ("0.3", "@q3", "[0.5, 1.0]", "1"):
            for f in ("quantile", "nanquantile"):
                for m in _METHODS:
                    cs.append(("float", "jnp." + f, (x, q), "{'method': '%s'}" % m))
                cs.append(("float", "jnp." + f, (x, q), "{'axis': 0, 'keepdims': True}"))
            for f in ("percentile", "nanpercentile"):
                cs.append(("float", "jnp." + f, (x, q + "* 50"), "{}"))
                cs.append(
                    ("float", "jnp." + f, (x, q + "* 50"), "{'method': 'nearest', 'axis': -1}")
                )
        for f in ("average", "var", "std", "ptp", "nanvar", "nanstd", "mean", "nanmean"):
            cs.append(("float", "jnp." + f, (x,), "{}"))
    for x, kw in (
        ("@hx", "{}"),
        ("@hx", "{'bins': 5}"),
        ("@hx", "{'bins': 4, 'range': (-1, 1)}"),
        ("@hx", "{'bins': 4, 'weights': @hw}"),
        ("@hx", "{'bins': 3, 'density': True}"),
        ("@hx", "{'bins': @sorted6[:5]}"),
        ("@vtiesi", "{'bins': 3}"),
        ("@vnan[4:6]", "{}"),
        ("@v0", "{'bins': 3}"),
        ("@vh", "{'bins': 3}"),
        ("@vtiesi", "{'bins': 4, 'weights': @vtiesi}"),
        ("@hx", "{'bins': 4, 'weights': @vc3[:1] + @hw}"),
        ("jnp.ones(4)", "{'bins': 3}"),
        ("@hx", "{'bins': 2, 'range': (0.5, 0.5)}"),
    ):
        cs.append(("float", "jnp.histogram", (x,), kw))
        cs.append(
            (
                "float",
                "jnp.histogram_bin_edges",
                (x,),
                kw.replace(", 'weights': @hw", "").replace(", 'density': True", ""),
            )
        )
    for kw in (
        "{}",
        "{'bins': 3}",
        "{'bins': (2, 4)}",
        "{'bins': 3, 'weights': @hw}",
        "{'bins': 3, 'density': True}",
        "{'range': [(-1, 1), (0, 2)], 'bins': 2}",
    ):
        cs.append(("float", "jnp.histogram2d", ("@hx", "@hy"), kw))
    cs.append(("float", "jnp.histogramdd", ("jnp.stack([@hx, @hy], 1)",), "{'bins': 3}"))
    for x in ("@cnt", "@vtiesi", "@vb", "@vu8"):
        for kw in (
            "{}",
            "{'length': 3}",
            "{'length': 9}",
            "{'weights': @cntw}",
            "{'minlength': 8}",
            "{'weights': @vc3[:1] + @cntw}",
            "{'weights': @vtiesi[:6]}",
            "{'weights': @vb[:1] | @cnt.astype(bool)}",
        ):
            cs.append(("float", "jnp.bincount", (x,), kw))
    cs.append(("float", "jnp.bincount", ("@vi5",), "{'length': 6}"))
    for x in ("@st", "@s2d", "@vi5", "@vc3", "@v5", "@st[:1]", "@vh"):
        for kw in ("{}", "{'rowvar': False}", "{'ddof': 0}", "{'bias': True}", "{'ddof': 5}"):
            cs.append(("float", "jnp.cov", (x,), kw))
        cs.append(("float", "jnp.corrcoef", (x,), "{}"))
        cs.append(("float", "jnp.corrcoef", (x,), "{'rowvar': False}"))
    cs.append(("float", "jnp.cov", ("@st",), "{'fweights': @fw}"))
    cs.append(("float", "jnp.cov", ("@st",), "{'aweights': @cntw}"))
    cs.append(("float", "jnp.cov", ("@st",), "{'fweights': @fw, 'aweights': @cntw, 'ddof': 2}"))
    cs.append(("float", "jnp.cov", ("@st[0]", "@st[1]"), "{}"))
    cs.append(("float", "jnp.corrcoef", ("@st[0]", "@st[1]"), "{}"))
    for xq in ("@xq", "2.5", "@vi5"):
        for xp, fp in (("@xp", "@fp"), ("@xpnan", "@fp"), ("@xp", "@fpc"), ("@xp", "@vi5[:4]")):
            for kw in (
                "{}",
                "{'left': -1.0}",
                "{'right': 7}",
                "{'period': 3}",
                "{'left': jnp.nan}",
                "{'period': -3}",
            ):
                cs.append(("float", "jnp.interp", (xq, xp, fp), kw))
    for p in ("@pc", "@pc4", "@pcz", "@pcc", "@pci", "@v0", "[3.0]", "[0.0, 0.0]"):
        cs.append(("decomp", "jnp.roots", (p,), "{}"))
        cs.append(("decomp", "jnp.roots", (p,), "{'strip_zeros': False}"))
        for x in ("@xq", "2", "@m3", "@vc3", "@vi5"):
            cs.append(("float", "jnp.polyval", (p, x), "{}"))
        cs.append(("float", "jnp.polyint", (p,), "{}"))
        cs.append(("float", "jnp.polyint", (p,), "{'m': 2, 'k': 3}"))
        cs.append(("float", "jnp.polyint", (p,), "{'m': 2, 'k': [1, 2]}"))
        cs.append(("float", "jnp.polyder", (p,), "{}"))
        cs.append(("float", "jnp.polyder", (p,), "{'m': 3}"))
        cs.append(("float", "jnp.polyder", (p,), "{'m': 0}"))
        for q in ("@pc", "@pcc", "@pci"):
            for f in ("polyadd", "polysub", "polymul", "polydiv"):
                cs.append(("float", "jnp." + f, (p, q), "{}"))
        cs.append(("float", "jnp.poly", (p,), "{}"))
    cs.append(("float", "jnp.poly", ("@m3",), "{}"))
    cs.append(("float", "jnp.poly", ("@vcs[:3]",), "{}"))
    for deg in ("1", "2", "5"):
        for kw in (
            "{}",
            "{'full': True}",
            "{'w': @py}",
            "{'cov': True}",
            "{'rcond': 0.5}",
            "{'cov': 'unscaled'}",
        ):
            cs.append(("float", "jnp.polyfit", ("@px", "@py", deg), kw))
    cs.append(("float", "jnp.polyfit", ("@px", "jnp.stack([@py, @px], 1)", "1"), "{}"))
    cs.append(("float", "jnp.polyfit", ("@vi5", "@vi5", "1"), "{}"))
    for a, v in (
        ("@v5", "@v3"),
        ("@v3", "@v5"),
        ("@vc3", "@vc3b"),
        ("@vi5", "@v3"),
        ("@vi5", "@vi5"),
        ("@vb", "@vb"),
        ("@vc3", "@v5"),
        ("@vh", "@v3"),
        ("@v3", "@v3[:1]"),
    ):
        for f in ("convolve", "correlate"):
            for mode in ("'full'", "'same'", "'valid'"):
                cs.append(("float", "jnp." + f, (a, v), "{'mode': %s}" % mode))
            cs.append(("float", "jnp." + f, (a, v), "{'precision': 'highest'}"))
    for x in ("@g1", "@g2", "@vi5", "@vb", "@vh", "@v0", "@vc3", "@vu8"):
        for kw in (
            "{}",
            "{'n': 2}",
            "{'n': 0}",
            "{'prepend': 0}",
            "{'append': @vnan[:1]}",
            "{'prepend': 1.5, 'append': 2, 'n': 2}",
            "{'axis': 0}",
            "{'n': 7}",
        ):
            cs.append(("exact", "jnp.diff", (x,), kw))
        cs.append(("float", "jnp.ediff1d", (x,), "{}"))
        cs.append(("float", "jnp.ediff1d", (x,), "{'to_begin': -1, 'to_end': [3, 4]}"))
        for kw in ("{}", "{'axis': 0}", "{'edge_order': 2}", "{'axis': -1}"):
            cs.append(("float", "jnp.gradient", (x,), kw))
        cs.append(("float", "jnp.gradient", (x, "2.0"), "{}"))
        cs.append(("float", "jnp.gradient", (x, "@g1[:4] if False else 0.5"), "{}"))
        for kw in ("{}", "{'dx': 0.5}", "{'x': @g1}", "{'axis': 0}"):
            cs.append(("float", "jnp.trapezoid", (x,), kw))
    cs.append(("float", "jnp.gradient", ("@g1", "@px"), "{}"))
    cs.append(("float", "jnp.gradient", ("@g2", "1.0", "@g1[:4]"), "{}"))
    cs.append(("float", "jnp.gradient", ("@g1", "@px"), "{'edge_order': 2}"))
    return cs


#: Divergences that docs/semantics.md explains (JAX's value is wrong, JAX refuses what trellax
#: computes, or a documented tolerance class): ``(tag, regex)``, the regex searched in
#: ``"<class> <x64>|<mode>|<case id> jax=<JAX's error or ok>"``. The driver counts them apart.
KNOWN: tuple[tuple[str, str], ...] = (
    # JAX has no float16/bfloat16 LAPACK or pocketfft kernels; trellax computes in float32
    (
        "f16-kernels",
        r"^accepts .*\((@h3|@bf3|@hspd|@fh8|@fbf8)\b.*jax=(NotImplementedError|ValueError)",
    ),
    # quantile with an integer q (JAX: TypeError from floor of an int array), or 'inverted_cdf'
    # where q's float type is not the input's (float16 input; x64 on: JAX's lax.mul TypeError)
    ("quantile-int-q", r"^(accepts|error_class) .*quantile\(\S+, 1,.*jax=TypeError"),
    ("quantile-int-q", r"^(accepts|error_class) .*percentile\(\S+, 1\* 50,.*jax=TypeError"),
    ("quantile-inverted-cdf", r"^accepts .*quantile\(.*'inverted_cdf'.*jax=TypeError"),
    # partition of bool (JAX: TypeError from neg) and complex (NotImplementedError)
    ("partition-types", r"^accepts .*partition\((@vb|@vcs),"),
    # vector_norm of integers: every norm float (JAX: int results for ord 1/inf, errors else)
    ("vector-norm-int", r"^(dtype|accepts) .*vector_norm\((@vi5|@vb),"),
    # searchsorted of a row that is not sorted (vmap reverses the second row; @vties unsorted)
    ("unsorted-search", r"^value .*\|(vmap\|jnp\.searchsorted|\w+\|jnp\.searchsorted\(@vties)"),
    # JAX 0.10.2's eager interp(period=...) reuses an earlier call's non-periodic result
    ("interp-period", r"^value \d\|eager\|jnp\.interp\(.*'period'"),
    # decompositions: a column sign or phase, a null space or a repeated singular value's
    # subspace that LAPACK builds as it likes; cond of a singular matrix is 1 / rounding noise
    ("decomp-basis", r"^sign "),
    ("decomp-basis", r"^value .*(svd|qr)\((@rank54|@nonpd3)"),
    ("decomp-basis", r"^value .*(polar|cond)\((@sing3|@rank54)"),
    # JAX's expm of spd3 is 0.17% off (float32 Pade); trellax is SciPy's float64 value rounded
    ("expm-accuracy", r"^value .*expm\(@spd3"),
    # JAX's matrix_rank treats rtol as an absolute tolerance
    ("rank-rtol", r"^value .*matrix_rank\(@sing3, \*\*\{'rtol'"),
    # empty input: JAX ignores fill_value of nonzero/argwhere/where; counts shape (0,) of
    # unique_counts/unique_all with a size; histogram, polyadd, matrix_rank, trapezoid raise;
    # unique under jit/vmap raises though the size (0) is static; ihfft divides by zero
    ("empty-input", r"^value .*(nonzero|argwhere|flatnonzero|where)\(@v0, \*\*\{'size'"),
    ("empty-input", r"^shape .*unique_(counts|all)\(@v0"),
    ("empty-input", r"^accepts .*(histogram|histogram_bin_edges|polyadd|polysub|trapezoid)\(@v0"),
    ("empty-input", r"^accepts .*matrix_rank\(@m0"),
    ("empty-input", r"^accepts .*unique\w*\(@v0.*jax=ConcretizationTypeError"),
    ("empty-input", r"^error_class .*ihfft\(@v0.*jax=ZeroDivisionError"),
    # kron of bools is a logical and (JAX: TypeError from lax.mul)
    ("kron-bool", r"^accepts .*kron\(@vb"),
    # polyfit of degree 5 through 6 points: its covariance is the inverse of an
    # ill-conditioned matrix in float32 (both 10-12% off float64's)
    ("ill-conditioned", r"^value .*polyfit\(@px, @py, 5, \*\*\{'cov': 'unscaled'\}"),
    # percentile 'nearest' at an exact half with x64: XLA's rewrite of q / 100
    ("nearest-tie", r"^value 1\|\w+\|jnp\.percentile\(@vtiesi, 1\* 50, .*'nearest'"),
)


def all_cases() -> list[Case]:
    """Every case of the probe, in a fixed order."""
    return _cases_linalg() + _cases_fft() + _cases_sort() + _cases_stats()


MODES = ("eager", "jit", "vmap")


def case_id(case: Case) -> str:
    _kind, f, args, kw = case
    return f"{f}({', '.join(args)}, **{kw})"


__all__ = ["KNOWN", "MODES", "all_cases", "case_id", "make_inputs"]
