"""L.NStepRNNTanh, L.NStepRNNReLU and their bidirectional forms: the case table and Chainer's
outputs."""
import pytest

import chainer.links as L
from chainer_tests.links_tests import _cases
from chainer_tests.links_tests.rnn_tests import _reference

@_cases.cases('NStepRNNTanh', 'NStepBiRNNReLU')
class TestNStepRNN(_cases.LinkTest):
    # The outputs are checked against Chainer 7.8.1 below (test_outputs_equal_chainer).
    pass


@pytest.mark.parametrize('name', ['NStepRNNTanh', 'NStepRNNTanh_nohx', 'NStepRNNReLU',
                                  'NStepRNNReLU_nohx', 'NStepBiRNNTanh', 'NStepBiRNNTanh_nohx',
                                  'NStepBiRNNReLU', 'NStepBiRNNReLU_nohx'])
def test_parameter_names_and_shapes_equal_chainer(name):
    _reference.check_parameter_names_and_shapes(name)


@pytest.mark.parametrize('name', ['NStepRNNTanh', 'NStepRNNTanh_nohx', 'NStepRNNReLU',
                                  'NStepRNNReLU_nohx', 'NStepBiRNNTanh', 'NStepBiRNNTanh_nohx',
                                  'NStepBiRNNReLU', 'NStepBiRNNReLU_nohx'])
def test_outputs_equal_chainer(name):
    _reference.check_outputs(name)


def test_module_path():
    for name in ('NStepRNNTanh', 'NStepRNNReLU', 'NStepBiRNNTanh', 'NStepBiRNNReLU'):
        assert getattr(L, name).__module__ == 'chainer.links.rnn.n_step_rnn'
