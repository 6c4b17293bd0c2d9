"""``flax.linen.recurrent``: the recurrent cells, ``RNN`` and ``Bidirectional``, as names of ``trellax.nn``."""

from trellax._src.nn.dtypes import promote_dtype as promote_dtype
from trellax._src.nn.linear import default_kernel_init as default_kernel_init
from trellax._src.nn.recurrent import DenseParams as DenseParams
from trellax._src.nn.recurrent import flip_sequences as flip_sequences
from trellax.nn import RNN as RNN
from trellax.nn import Bidirectional as Bidirectional
from trellax.nn import Conv as Conv
from trellax.nn import ConvLSTMCell as ConvLSTMCell
from trellax.nn import Dense as Dense
from trellax.nn import GRUCell as GRUCell
from trellax.nn import LSTMCell as LSTMCell
from trellax.nn import MGUCell as MGUCell
from trellax.nn import Module as Module
from trellax.nn import OptimizedLSTMCell as OptimizedLSTMCell
from trellax.nn import RNNCellBase as RNNCellBase
from trellax.nn import SimpleCell as SimpleCell
from trellax.nn import compact as compact
from trellax.nn import nowrap as nowrap
from trellax.nn import sigmoid as sigmoid
from trellax.nn import tanh as tanh
