import abc
import importlib.util
import os
import warnings

import numpy
import pytest

import chainer
from chainer import backend
from chainer import device_resident


def _load_fake_cupy_module():
    path = os.path.join(os.path.dirname(__file__), 'backends_tests', 'test_cuda_fake_cupy.py')
    spec = importlib.util.spec_from_file_location('_fake_cupy_for_device_resident', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_fake = _load_fake_cupy_module()
xp = _fake.xp       # the fixture: a NumPy-backed stand-in for CuPy with several "GPUs"


class Holder(device_resident.DeviceResident):
    # No super().__init__(): the class default (the CPU) must do.
    def __init__(self):
        self.a = numpy.arange(3.0)
        self.v = chainer.Variable(numpy.ones(2, numpy.float32))
        self.child = None

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        self.a = visitor.visit_array(self.a)
        visitor.visit_variable(self.v)
        if self.child is not None:
            self.child.device_resident_accept(visitor)


def test_cpu_basics():
    h = Holder()
    assert h.device == backend.CpuDevice() and h.xp is numpy
    assert h.to_device('@numpy') is h and h.to_cpu() is h and h.from_chx() is h
    assert isinstance(h.a, numpy.ndarray)


def test_visitor_sees_everything():
    seen = []

    class Recorder(device_resident.DeviceResidentsVisitor):
        def visit_device_resident(self, r):
            seen.append(('resident', r))

        def visit_array(self, arr):
            seen.append(('array', arr.shape))
            return arr

        def visit_variable(self, param):
            seen.append(('variable', param.shape))

    h = Holder()
    h.child = Holder()
    h.device_resident_accept(Recorder())
    assert seen == [('resident', h), ('array', (3,)), ('variable', (2,)),
                    ('resident', h.child), ('array', (3,)), ('variable', (2,))]


def test_base_visitor_methods_are_abstract():
    v = device_resident.DeviceResidentsVisitor()
    for call in (lambda: v.visit_device_resident(None), lambda: v.visit_array(None),
                 lambda: v.visit_variable(None)):
        with pytest.raises(NotImplementedError):
            call()


def test_unavailable_backends():
    h = Holder()
    with pytest.raises(RuntimeError):
        h.to_intel64()
    with pytest.raises(RuntimeError):
        h.to_chx()


def test_to_gpu_and_back(xp):
    h = Holder()
    h.child = Holder()
    assert h.to_gpu(1) is h
    for r in (h, h.child):
        assert r.device == backend.GpuDevice.from_device_id(1)
        assert isinstance(r.a, xp.ndarray) and r.a.device_id == 1
        assert isinstance(r.v.array, xp.ndarray) and r.v.array.device_id == 1
    h.to_device('@numpy')
    assert isinstance(h.a, numpy.ndarray) and isinstance(h.child.v.array, numpy.ndarray)
    assert h.device == backend.CpuDevice()


def test_to_gpu_without_device_keeps_gpu_residents(xp):
    h = Holder()
    h.child = Holder()
    h.child.to_gpu(2)
    h.to_gpu()          # current device (0); the child stays on GPU 2
    assert h.a.device_id == 0 and h.device == backend.GpuDevice.from_device_id(0)
    assert h.child.a.device_id == 2 and h.child.v.array.device_id == 2
    h.to_gpu(0)         # an explicit device moves everything
    assert h.child.a.device_id == 0


def test_transfer_methods_are_final():
    DeviceResident = device_resident.DeviceResident
    for name in ('to_device', 'to_chx', 'from_chx'):
        with pytest.raises(TypeError, match=name):
            type('Sub', (DeviceResident,), {name: lambda self: None})
    for name in ('to_cpu', 'to_gpu', 'to_intel64'):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter('always')
            type('Sub', (DeviceResident,), {name: lambda self: None})
        assert [x.category for x in w] == [DeprecationWarning]
    # Its metaclass is also an ABCMeta, so abstract subclasses combine.
    assert isinstance(DeviceResident, abc.ABCMeta)

    class Abstract(DeviceResident, abc.ABC):
        @abc.abstractmethod
        def f(self):
            pass
    with pytest.raises(TypeError):
        Abstract()
