import io

import numpy

import chainer
from chainer import _runtime_info


def test_print_runtime_info_writes_the_versions():
    out = io.StringIO()
    chainer.print_runtime_info(out)
    text = out.getvalue()
    lines = text.splitlines()
    assert lines[0].startswith('Platform: ')
    assert f'Chainer: {chainer.__version__}' in lines
    assert f'rechainer: {chainer.rechainer_version}' in lines
    assert 'ChainerX: Not Available' in lines
    assert f'NumPy: {numpy.__version__}' in lines
    assert lines[-1] == 'iDeep: Not Available'
    assert text.endswith('\n')
    if not chainer.backends.cuda.available:
        assert 'CuPy: Not Available' in lines


def test_defaults_to_stdout(capsys):
    chainer.print_runtime_info()
    assert 'NumPy: ' in capsys.readouterr().out


def test_same_function_and_info_object():
    assert chainer.print_runtime_info is _runtime_info.print_runtime_info
    info = _runtime_info._get_runtime_info()
    assert info.chainer_version == chainer.__version__
    assert info.numpy_version == numpy.__version__
    assert info.chainerx_available is False
    assert info.ideep_version is None
    assert str(info).startswith('Platform: ')
