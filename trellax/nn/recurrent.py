"""``flax.linen.recurrent``: the recurrent cells, ``RNN`` and ``Bidirectional``, as names of ``trellax.nn``."""

from trellax._src.nn.activations import sigmoid as sigmoid
from trellax._src.nn.activations import tanh as tanh
from trellax._src.nn.conv import Conv as Conv
from trellax._src.nn.dtypes import promote_dtype as promote_dtype
from trellax._src.nn.linear import Dense as Dense
from trellax._src.nn.linear import default_kernel_init as default_kernel_init
from trellax._src.nn.module import Module as Module
from trellax._src.nn.module import compact as compact
from trellax._src.nn.module import nowrap as nowrap
from trellax._src.nn.recurrent import RNN as RNN
from trellax._src.nn.recurrent import Bidirectional as Bidirectional
from trellax._src.nn.recurrent import ConvLSTMCell as ConvLSTMCell
from trellax._src.nn.recurrent import DenseParams as DenseParams
from trellax._src.nn.recurrent import GRUCell as GRUCell
from trellax._src.nn.recurrent import LSTMCell as LSTMCell
from trellax._src.nn.recurrent import MGUCell as MGUCell
from trellax._src.nn.recurrent import OptimizedLSTMCell as OptimizedLSTMCell
from trellax._src.nn.recurrent import RNNCellBase as RNNCellBase
from trellax._src.nn.recurrent import SimpleCell as SimpleCell
from trellax._src.nn.recurrent import flip_sequences as flip_sequences
