"""Helpers for testing exports: inputs, test data sets and an ONNX Runtime check."""
from onnx_chainer.testing import get_test_data_set  # NOQA
from onnx_chainer.testing import input_generator  # NOQA
