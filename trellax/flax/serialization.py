"""``trellax.flax.serialization`` (``flax.serialization``): state dicts and Flax's msgpack bytes.

``MAX_CHUNK_SIZE`` (bytes; larger arrays are written in chunks) is read from and set on the
implementation module, so ``serialization.MAX_CHUNK_SIZE = n`` takes effect.
"""

from trellax._src.flax import msgpack_format as _impl
from trellax._src.flax.forwarding import forward_settings as _forward_settings
from trellax._src.flax.msgpack_format import SerializedDataError as SerializedDataError
from trellax._src.flax.msgpack_format import from_bytes as from_bytes
from trellax._src.flax.msgpack_format import msgpack_restore as msgpack_restore
from trellax._src.flax.msgpack_format import msgpack_serialize as msgpack_serialize
from trellax._src.flax.msgpack_format import to_bytes as to_bytes
from trellax._src.flax.state_dict import current_path as current_path
from trellax._src.flax.state_dict import from_state_dict as from_state_dict
from trellax._src.flax.state_dict import is_serializable as is_serializable
from trellax._src.flax.state_dict import (
    register_serialization_state as register_serialization_state,
)
from trellax._src.flax.state_dict import to_state_dict as to_state_dict

# Flax's private helpers that Flax's own tests call.
from trellax._src.flax.msgpack_format import (  # isort: skip
    _chunk_array_leaves_in_place as _chunk_array_leaves_in_place,
    _msgpack_ext_pack as _msgpack_ext_pack,
    _msgpack_ext_unpack as _msgpack_ext_unpack,
)
from trellax._src.flax.state_dict import (  # isort: skip
    _REGISTRY as _STATE_DICT_REGISTRY,  # noqa: F401  (Flax's name of the registry)
)

MAX_CHUNK_SIZE: int  # forwarded to the implementation module (see the module docstring)
_forward_settings(__name__, _impl, ["MAX_CHUNK_SIZE"])
