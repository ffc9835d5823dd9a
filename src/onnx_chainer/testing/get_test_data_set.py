"""Writing a test data set per opset, for tests that run it in a runtime."""
import os

import onnx_chainer  # NOQA
from onnx_chainer.export_testcase import export_testcase

TEST_OUT_DIR = 'out'


def gen_test_data_set(model, args, name, opset_version, **kwargs):
    """Exports ``model`` with its test data to ``out/opset<N>/<name>``.

    Args:
        model, args: As for :func:`onnx_chainer.export`.
        name (str): Directory name of the case.
        opset_version (int): The opset.
        **kwargs: Further arguments of :func:`onnx_chainer.export_testcase`.

    Returns:
        str: The directory written.
    """
    path = os.path.join(TEST_OUT_DIR, 'opset{}'.format(opset_version), name)
    export_testcase(model, args, path, opset_version=opset_version, **kwargs)
    return path
