"""The programs of ``tests/test_probe_batch3.py`` where trellax and JAX/Flax/optax still differ.

``KNOWN``: trellax keeps its own answer on purpose (``docs/semantics.md``, "Where trellax differs
from JAX, on purpose"), each with the reason. ``OPEN``: differences the probe found that are not
fixed yet, by class; the test fails when one starts matching, so the list only shrinks.
"""

from __future__ import annotations

XLA = (
    "under jax.jit XLA fuses a*b+c into an FMA and keeps float16 intermediates in float32; "
    "trellax rounds op by op (docs/nn.md): a near-cancelling float32 difference and float16 "
    "parameters end some ulps apart"
)

KNOWN: dict[str, str] = {
    "optax2/adamw_maskfn/jit": XLA,
    "optax2/train_step_jit/f16": XLA,
    "optax3/multisteps": (
        "a step that does not apply the inner optimizer returns `emit * update`; inside optax's "
        "compiled lax.cond XLA reassociates `emit * (-lr * acc)` into `(emit * -lr) * acc`, so "
        "an n-d leaf's zero update is +0.0 there and -0.0 in trellax's product as written"
    ),
    "lift/while": (
        "an in-place write into self.variables: Flax writes through (even into the caller's "
        "dict of a collection that is not mutable); trellax's self.variables is a copy"
    ),
    "dlpack/strided": "a strided NumPy array is copied; JAX's from_dlpack refuses it",
    "dlpack/bfloat16/to_np": (
        "np.from_dlpack of a bfloat16 array: NumPy's BufferError (JAX's buffer: RuntimeError)"
    ),
    "ser_misc/garbage": (
        "undecodable bytes: trellax's SerializedDataError (a ValueError); Flax lets msgpack's "
        "FormatError (a ValueError) out"
    ),
}

OPEN: dict[str, str] = {}
