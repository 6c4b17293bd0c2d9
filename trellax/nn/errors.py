"""``trellax.nn.errors``: the module system's error classes (``flax.errors``)."""

from trellax._src.nn.errors import ApplyModuleInvalidMethodError as ApplyModuleInvalidMethodError
from trellax._src.nn.errors import AssignSubModuleError as AssignSubModuleError
from trellax._src.nn.errors import CallCompactUnboundModuleError as CallCompactUnboundModuleError
from trellax._src.nn.errors import CallSetupUnboundModuleError as CallSetupUnboundModuleError
from trellax._src.nn.errors import (
    CallShareScopeOnUnboundModuleError as CallShareScopeOnUnboundModuleError,
)
from trellax._src.nn.errors import CallUnbindOnUnboundModuleError as CallUnbindOnUnboundModuleError
from trellax._src.nn.errors import DescriptorAttributeError as DescriptorAttributeError
from trellax._src.nn.errors import FlaxError as FlaxError
from trellax._src.nn.errors import (
    IncorrectPostInitOverrideError as IncorrectPostInitOverrideError,
)
from trellax._src.nn.errors import InvalidInstanceModuleError as InvalidInstanceModuleError
from trellax._src.nn.errors import InvalidRngError as InvalidRngError
from trellax._src.nn.errors import LazyInitError as LazyInitError
from trellax._src.nn.errors import ModifyScopeVariableError as ModifyScopeVariableError
from trellax._src.nn.errors import MultipleMethodsCompactError as MultipleMethodsCompactError
from trellax._src.nn.errors import NameInUseError as NameInUseError
from trellax._src.nn.errors import PartitioningUnspecifiedError as PartitioningUnspecifiedError
from trellax._src.nn.errors import ScopeCollectionNotFound as ScopeCollectionNotFound
from trellax._src.nn.errors import ScopeParamNotFoundError as ScopeParamNotFoundError
from trellax._src.nn.errors import ScopeParamShapeError as ScopeParamShapeError
from trellax._src.nn.errors import ScopeVariableNotFoundError as ScopeVariableNotFoundError
from trellax._src.nn.errors import SetAttributeFrozenModuleError as SetAttributeFrozenModuleError
from trellax._src.nn.errors import (
    TransformedMethodReturnValueError as TransformedMethodReturnValueError,
)
from trellax._src.nn.errors import TransformTargetError as TransformTargetError
