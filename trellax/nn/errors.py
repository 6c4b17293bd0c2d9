"""``trellax.nn.errors``: the module system's error classes (``flax.errors``)."""

from trellax._src.nn.errors import ApplyModuleInvalidMethodError as ApplyModuleInvalidMethodError
from trellax._src.nn.errors import CallCompactUnboundModuleError as CallCompactUnboundModuleError
from trellax._src.nn.errors import FlaxError as FlaxError
from trellax._src.nn.errors import InvalidRngError as InvalidRngError
from trellax._src.nn.errors import ModifyScopeVariableError as ModifyScopeVariableError
from trellax._src.nn.errors import MultipleMethodsCompactError as MultipleMethodsCompactError
from trellax._src.nn.errors import NameInUseError as NameInUseError
from trellax._src.nn.errors import ScopeCollectionNotFound as ScopeCollectionNotFound
from trellax._src.nn.errors import ScopeParamNotFoundError as ScopeParamNotFoundError
from trellax._src.nn.errors import ScopeParamShapeError as ScopeParamShapeError
from trellax._src.nn.errors import ScopeVariableNotFoundError as ScopeVariableNotFoundError
from trellax._src.nn.errors import SetAttributeFrozenModuleError as SetAttributeFrozenModuleError
