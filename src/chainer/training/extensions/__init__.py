"""Trainer extensions: evaluation, logging, reporting, plotting, snapshots, schedules."""
from chainer import _lazy
from chainer.training.extensions import computational_graph  # NOQA
from chainer.training.extensions import evaluator  # NOQA
from chainer.training.extensions import exponential_shift  # NOQA
from chainer.training.extensions import fail_on_nonnumber  # NOQA
from chainer.training.extensions import inverse_shift  # NOQA
from chainer.training.extensions import linear_shift  # NOQA
from chainer.training.extensions import log_report  # NOQA
from chainer.training.extensions import micro_average  # NOQA
from chainer.training.extensions import multistep_shift  # NOQA
from chainer.training.extensions import parameter_statistics  # NOQA
from chainer.training.extensions import plot_report  # NOQA
from chainer.training.extensions import polynomial_shift  # NOQA
from chainer.training.extensions import print_report  # NOQA
from chainer.training.extensions import progress_bar  # NOQA
from chainer.training.extensions import snapshot_writers  # NOQA
from chainer.training.extensions import step_shift  # NOQA
from chainer.training.extensions import util  # NOQA
from chainer.training.extensions import value_observation  # NOQA
from chainer.training.extensions import variable_statistics_plot  # NOQA
from chainer.training.extensions import variable_unchain  # NOQA
from chainer.training.extensions import warmup_shift  # NOQA

from chainer.training.extensions._snapshot import snapshot  # NOQA
from chainer.training.extensions._snapshot import snapshot_object  # NOQA
from chainer.training.extensions.computational_graph import dump_graph  # NOQA
from chainer.training.extensions.computational_graph import DumpGraph  # NOQA
from chainer.training.extensions.evaluator import Evaluator  # NOQA
from chainer.training.extensions.exponential_shift import ExponentialShift  # NOQA
from chainer.training.extensions.fail_on_nonnumber import FailOnNonNumber  # NOQA
from chainer.training.extensions.inverse_shift import InverseShift  # NOQA
from chainer.training.extensions.linear_shift import LinearShift  # NOQA
from chainer.training.extensions.log_report import LogReport  # NOQA
from chainer.training.extensions.micro_average import MicroAverage  # NOQA
from chainer.training.extensions.multistep_shift import MultistepShift  # NOQA
from chainer.training.extensions.parameter_statistics import ParameterStatistics  # NOQA
from chainer.training.extensions.plot_report import PlotReport  # NOQA
from chainer.training.extensions.polynomial_shift import PolynomialShift  # NOQA
from chainer.training.extensions.print_report import PrintReport  # NOQA
from chainer.training.extensions.progress_bar import ProgressBar  # NOQA
from chainer.training.extensions.step_shift import StepShift  # NOQA
from chainer.training.extensions.value_observation import observe_lr  # NOQA
from chainer.training.extensions.value_observation import observe_value  # NOQA
from chainer.training.extensions.variable_statistics_plot import VariableStatisticsPlot  # NOQA
from chainer.training.extensions.variable_unchain import unchain_variables  # NOQA
from chainer.training.extensions.warmup_shift import WarmupShift  # NOQA

# Submodules are attributes, imported when first asked for (as Chainer's eager imports make
# them).
__getattr__ = _lazy.submodule_getattr(__name__)
