"""rechainer's FunctionNodes carry Chainer 7.8.1's attribute names, which converters (ours and
the ``external_converters`` users write) read off ``params.func``.

``tests/fixtures/function_attributes.json`` holds, for every converter case that Chainer 7.8.1
runs, the public attributes of its FunctionNodes there and the kinds of their values
(``tests/fixtures/make_function_attributes.py``). Each case's own function (the class its
converter is for) must have every one of them here, with a value of the same kind, except
the values that Chainer computes in the forward pass for itself (listed below).
"""
import json
import os
import warnings

import pytest

from onnx_chainer_tests import _attributes
from onnx_chainer_tests import _cases

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'fixtures',
                       'function_attributes.json')

# Values Chainer's implementation keeps for its own forward or backward pass (buffers,
# intermediate results, placeholders it sets to None), not options of the function.
CACHES = {
    'AveragePoolingND': {'width'},
    'BatchNormalization': {'forward_data'},
    'FixedBatchNormalization': {'inv_std', 'inv_var'},
    'GroupNormalization': {'dummy_gamma'},
    'LocalResponseNormalization': {'indexes', 'scale', 'unit_scale'},
    'Mean': {'multiplier'},
    'MultiAdd': {'len'},
    'PowVarVar': {'y'},
    'SigmoidCrossEntropy': {'count', 'ignore_mask'},
}


def _reference():
    with open(FIXTURE) as f:
        return json.load(f)['cases']


def _params():
    reference = _reference()
    for case in _cases.CASES:
        entry = reference.get(case.name, {}).get(case.converter)
        if entry is not None:
            yield pytest.param(case, entry, id=case.name)


@pytest.mark.parametrize('case,entry', list(_params()))
def test_attributes_as_chainer_781(case, entry):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        y, nodes = _attributes.apply_case(case)
    ours = [node for node, _ in nodes if type(node).__name__ == case.converter]
    assert ours, '{} applies no {}'.format(case.name, case.converter)
    node = ours[0]
    skip = CACHES.get(case.converter, set())
    missing = sorted(k for k in entry['final'] if k not in skip and not hasattr(node, k))
    assert not missing, '{} lacks Chainer\'s attributes {}'.format(case.converter, missing)
    kinds = {k: (v, _attributes.kind(getattr(node, k))) for k, v in entry['final'].items()
             if k not in skip}
    wrong = {k: v for k, v in kinds.items() if v[0] != v[1]}
    assert not wrong, '{}: attribute kinds (Chainer, rechainer) differ: {}'.format(
        case.converter, wrong)


def test_fixture_covers_the_converted_classes():
    # Every class with a converter case that Chainer 7.8.1 runs is compared by some case.
    reference = _reference()
    compared = {case.converter for case in _cases.CASES
                if case.converter in reference.get(case.name, {})}
    expected = {case.converter for case in _cases.CASES if case.reference
                and 'error' not in reference.get(case.name, {'error': 1})}
    # These are Python functions over other FunctionNodes in Chainer 7.8.1 (sign, n_step_*,
    # rsqrt and selu), so it has no such class.
    assert sorted(expected - compared) == sorted(
        {'n_step_rnn', 'n_step_birnn', 'n_step_gru', 'n_step_bigru', 'n_step_lstm',
         'n_step_bilstm', 'sign', 'Rsqrt', 'SELU'})
