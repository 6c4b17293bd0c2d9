"""Public-API behaviour JAX's ``api_test`` checks that trellax got wrong (branch ``jt16``).

``jnp.asarray``/``jnp.array`` of a value being differentiated by ``jvp`` bind a conversion in
JAX (the tracer knows its value), so a Python-scalar tangent comes out as an array: trellax
returned the tracer as it was, and ``jvp(jnp.asarray, (1.,), (2.,))`` gave the tangent back
as the Python float ``2.0``.
"""

from __future__ import annotations

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax._src.core.basearray import Array


@pytest.mark.parametrize("convert", [tnp.asarray, tnp.array])
def test_jvp_of_asarray_gives_array_tangent(convert: object) -> None:
    p, t = trellax.jvp(convert, (1.0,), (2.0,))  # type: ignore[arg-type]
    assert isinstance(p, Array) and isinstance(t, Array)
    assert p.dtype == t.dtype == np.float32
    assert p.weak_type and t.weak_type  # a Python float's weak type is kept, as in JAX
    assert float(t) == 2.0


def test_asarray_under_make_jaxpr_adds_no_equation() -> None:
    jaxpr = trellax.make_jaxpr(lambda x: trellax.jvp(tnp.asarray, (x,), (x,)))(1.0)
    assert len(jaxpr.jaxpr.eqns) == 0  # an abstract tracer is returned as it is, as in JAX
