"""``jax.ad``: the markers of ``vjp(...)[1].with_refs(...)`` (where each cotangent goes)."""

from trellax._src.api.grad_refs import DidntWant as DidntWant
from trellax._src.api.grad_refs import DontWant as DontWant
from trellax._src.api.grad_refs import GradRef as GradRef
from trellax._src.api.grad_refs import GradValue as GradValue

__all__ = ["DidntWant", "DontWant", "GradRef", "GradValue"]
