"""``python -m onnx_chainer MODULE:FACTORY --input-shape ... -o FILE``."""
import os
import subprocess
import sys
import textwrap

import numpy
import pytest

onnx = pytest.importorskip('onnx', reason="onnx is not installed (pip install 'rechainer[onnx]')")
pytest.importorskip('onnxruntime',
                    reason="onnxruntime is not installed (pip install 'rechainer[onnx]')")

from onnx_chainer import __main__ as cli  # NOQA
from onnx_chainer_tests.test_converters import run_onnxruntime  # NOQA

MODELS = textwrap.dedent('''
    import chainer
    import chainer.functions as F
    import chainer.links as L


    def cnn():
        return chainer.Sequential(L.Convolution2D(3, 4, 3, pad=1), L.BatchNormalization(4),
                                  F.relu, lambda h: F.max_pooling_2d(h, 2), L.Linear(None, 5))


    class LM(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.embed = L.EmbedID(7, 4)
                self.lstm = L.NStepLSTM(1, 4, 4, 0.0)

        def forward(self, x):
            _, _, ys = self.lstm(None, None, F.separate(self.embed(x), axis=0))
            return F.stack(ys)


    def two_outputs():
        return chainer.Sequential(lambda a, b: {'sum': a + b, 'product': a * b})


    not_a_link = 3
''')


@pytest.fixture
def workdir(tmp_path):
    (tmp_path / 'cli_models.py').write_text(MODELS)
    return tmp_path


def _run(workdir, *args):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(workdir)] + [p for p in sys.path if p]))
    return subprocess.run([sys.executable, '-m', 'onnx_chainer'] + list(args), cwd=workdir,
                          env=env, capture_output=True, text=True, timeout=300)


def test_dynamic_batch_file_runs_at_other_batch_sizes(workdir):
    r = _run(workdir, 'cli_models:cnn', '--input-shape', '2,3,8,8', '-o', 'cnn.onnx',
             '--opset', '17', '--dynamic-batch')
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == 'onnx_chainer: loading cli_models:cnn'
    assert 'exporting at opset 17 with a dynamic batch axis to cnn.onnx' in lines[2]
    assert 'onnx.checker: the model is valid' in r.stdout
    assert sum('outputs equal to the model' in line for line in lines) == 2
    assert 'batch size 4' in r.stdout
    model = onnx.load(str(workdir / 'cnn.onnx'))
    assert model.opset_import[0].version == 17
    x = numpy.ones((5, 3, 8, 8), numpy.float32)
    assert run_onnxruntime(model, [x], ['output_0'])[0].shape == (5, 5)


@pytest.fixture
def inside(workdir, monkeypatch):
    # Runs the command line in this process, in ``workdir``.
    monkeypatch.chdir(workdir)
    monkeypatch.setattr(sys, 'path', [str(workdir)] + sys.path)
    monkeypatch.delitem(sys.modules, 'cli_models', raising=False)
    return workdir


def test_integer_inputs_file_and_default_opset(inside, capsys):
    assert cli.main(['cli_models.py:LM', '--input-shape', '3,5:int32', '--int-high', '7',
                     '-o', 'lm.onnx']) == 0
    out = capsys.readouterr().out
    assert 'inputs: int32[3, 5]' in out
    assert 'exporting at opset 11 to lm.onnx' in out
    assert onnx.load(str(inside / 'lm.onnx')).opset_import[0].version == 11


def test_several_inputs_and_named_outputs(inside):
    assert cli.main(['cli_models:two_outputs', '--input-shape', '2,3', '--input-shape', '2,3',
                     '-o', 'two.onnx']) == 0
    model = onnx.load(str(inside / 'two.onnx'))
    assert [o.name for o in model.graph.output] == ['sum', 'product']


@pytest.mark.parametrize('args,message', [
    (['cli_models:missing', '--input-shape', '2,3'], "cli_models has no attribute 'missing'"),
    (['cli_models:not_a_link', '--input-shape', '2,3'], 'not a chainer.Link'),
    (['cli_models', '--input-shape', '2,3'], 'expected MODULE:FACTORY'),
    (['nowhere.py:f', '--input-shape', '2,3'], 'no file'),
])
def test_errors_name_the_problem(inside, args, message, capsys):
    assert cli.main(args + ['-o', 'x.onnx']) == 2
    assert message in capsys.readouterr().err
    assert not (inside / 'x.onnx').exists()


@pytest.mark.parametrize('text', ['2,x', '0,3', '2,3:nosuchtype'])
def test_bad_input_shape_is_a_usage_error(text):
    with pytest.raises(SystemExit) as e:
        cli._parser().parse_args(['m:f', '--input-shape', text, '-o', 'x.onnx'])
    assert e.value.code == 2


def test_differing_outputs_exit_with_1(inside, monkeypatch, capsys):
    # The check compares with the model: a model that computes something else than its
    # export is reported.
    original = cli._forward

    def shifted(model, xs):
        ys, names = original(model, xs)
        return [y + 1 for y in ys], names
    monkeypatch.setattr(cli, '_forward', shifted)
    assert cli.main(['cli_models:cnn', '--input-shape', '1,3,4,4', '-o', 'c.onnx']) == 1
    assert 'outputs DIFFER' in capsys.readouterr().out
