"""Structured control flow: ``cond``, ``switch``, ``while_loop``, ``fori_loop``, ``scan``, ``map``.

Each branch or loop body is traced once, on abstract values, into a sub-jaxpr that becomes a
parameter of a call-like primitive (``cond_p``, ``while_p``, ``scan_p``). Eagerly the primitive's
impl runs the compiled sub-programs; under ``jit`` an equation is recorded and the sub-programs run
inside the compiled outer program. Values a branch closes over (arrays, or tracers of an enclosing
``jit``) become explicit constant inputs.

Dtype rules (JAX's): branch outputs must have equal shapes and dtypes (weak flags may differ; the
result has branch 0's types, weak flags included). A loop carry is traced as an abstract value, so its type
must be the same after the body: a *weakly typed* initial value whose type the body changes is
promoted to the body's output type (``fori_loop(0, 3, lambda i, x: x + 1.5, 0)`` carries a
float32); a strongly typed one raises a TypeError that names the leaf and the fix.

Eager calls (no enclosing trace, concrete arguments) are traced and compiled once per functions,
static parameters and argument types, then run the cached program (``common.eager_cached``).

Differentiation rules live in ``control_flow.ad`` (while, scan's forward mode),
``control_flow.scan_ad`` (scan's reverse mode) and ``control_flow.cond_ad``.
"""

from trellax._src.control_flow import ad as _ad  # noqa: F401  (registers the JVP rules)
from trellax._src.control_flow import cond_ad as _cond_ad  # noqa: F401
from trellax._src.control_flow.conditionals import cond, cond_p, switch
from trellax._src.control_flow.loops import fori_loop, while_loop, while_p
from trellax._src.control_flow.scan import map, scan, scan_p

__all__ = [
    "cond",
    "cond_p",
    "fori_loop",
    "map",
    "scan",
    "scan_p",
    "switch",
    "while_loop",
    "while_p",
]
