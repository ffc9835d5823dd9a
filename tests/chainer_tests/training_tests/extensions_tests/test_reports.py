import io
import json
import os
import struct
import unittest.mock

import numpy
import pytest

import chainer
from chainer import testing
from chainer import training
from chainer.training import extensions
from chainer_tests.training_tests import _train_helpers as H


def _reporting_trainer(stop=(6, 'iteration'), out=None):
    trainer = testing.get_trainer_with_mock_updater(stop, iter_per_epoch=3)
    if out is not None:
        trainer.out = out
    trainer.extend(lambda t: chainer.report({'a': float(t.updater.iteration), 'b': 1.0}),
                   name='rep', priority=training.PRIORITY_WRITER)
    return trainer


def test_log_report_json_written_atomically(tmp_path):
    trainer = _reporting_trainer(out=str(tmp_path))
    trainer.extend(extensions.LogReport(['a'], trigger=(2, 'iteration')))
    with unittest.mock.patch('os.replace', wraps=os.replace) as replace:
        trainer.run()
    log = json.loads((tmp_path / 'log').read_text())
    assert [e['a'] for e in log] == [1.5, 3.5, 5.5]
    assert [e['iteration'] for e in log] == [2, 4, 6]
    assert [e['epoch'] for e in log] == [0, 1, 2]
    assert all('elapsed_time' in e and 'b' not in e for e in log)
    assert replace.call_count == 3  # one rename per write: never a partial file
    assert os.listdir(tmp_path) == ['log']


def test_log_report_filename_postprocess_and_no_file(tmp_path):
    trainer = _reporting_trainer(out=str(tmp_path))
    trainer.extend(extensions.LogReport(trigger=(3, 'iteration'), filename='log_{iteration}',
                                        postprocess=lambda e: e.update(extra=1)))
    trainer.extend(extensions.LogReport(trigger=(3, 'iteration'), log_name=None), name='quiet')
    trainer.run()
    assert sorted(os.listdir(tmp_path)) == ['log_3', 'log_6']
    assert trainer.get_extension('quiet').log[0]['b'] == 1.0
    assert json.loads((tmp_path / 'log_6').read_text())[-1]['extra'] == 1


def test_log_report_resume_continues_exactly(tmp_path):
    whole = _reporting_trainer((6, 'iteration'), out=str(tmp_path / 'w'))
    whole.extend(extensions.LogReport(trigger=(4, 'iteration')))
    whole.run()
    part = _reporting_trainer((3, 'iteration'), out=str(tmp_path / 'p'))
    part.extend(extensions.LogReport(trigger=(4, 'iteration')))
    part.run()
    rest = _reporting_trainer((6, 'iteration'), out=str(tmp_path / 'r'))
    rest.extend(extensions.LogReport(trigger=(4, 'iteration')))
    rest.updater.iteration = 0
    testing.save_and_load_npz(part, rest)
    for _ in range(3):
        rest.updater.update()
    rest.stop_trigger = training.get_trigger((6, 'iteration'))
    rest.stop_trigger._previous_iteration = 3
    rest.run()

    def strip(log):
        return [{k: v for k, v in e.items() if k != 'elapsed_time'} for e in log]
    assert strip(rest.get_extension('LogReport').log) == \
        strip(whole.get_extension('LogReport').log)


def test_log_report_called_before_training_logs_an_entry_of_its_own(tmp_path):
    # An evaluation of the untrained model (iteration 0) is its own entry, not averaged into
    # the first epoch's.
    trainer = testing.get_trainer_with_mock_updater((2, 'epoch'), iter_per_epoch=2)
    trainer.out = str(tmp_path)

    def observe(t):
        chainer.report({'v': float(t.updater.iteration)})

    log = extensions.LogReport(log_name=None)
    trainer.extend(observe, trigger=(1, 'iteration'), call_before_training=True, name='observe',
                   priority=300)
    trainer.extend(log, call_before_training=True)
    trainer.run()
    assert [(e['iteration'], e['v']) for e in log.log] == [(0, 0.0), (2, 1.5), (4, 3.5)]


def test_print_report_table():
    out = io.StringIO()
    trainer = _reporting_trainer((4, 'iteration'))
    trainer.extend(extensions.LogReport(trigger=(2, 'iteration')))
    trainer.extend(extensions.PrintReport(['iteration', 'a', 'missing'], out=out))
    trainer.run()
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ['iteration', 'a', 'missing']
    assert [line.split() for line in lines[1:]] == [['2', '1.5'], ['4', '3.5']]


def test_progress_bar_plain_output_when_not_a_terminal():
    out = io.StringIO()
    trainer = _reporting_trainer((6, 'iteration'))
    trainer.extend(extensions.ProgressBar(update_interval=2, out=out))
    trainer.run()
    text = out.getvalue()
    assert '\033[' not in text
    lines = text.splitlines()
    assert len(lines) == 3
    assert '100.00%' in lines[-1] and '6 iter' in lines[-1] and 'iters/sec' in lines[-1]


def test_progress_bar_needs_a_length():
    trainer = testing.get_trainer_with_mock_updater((1, 'iteration'))
    trainer.stop_trigger = lambda t: t.updater.iteration >= 1
    trainer.extend(extensions.ProgressBar(out=io.StringIO()))
    with pytest.raises(TypeError, match='training_length'):
        trainer.run(show_loop_exception_msg=False)


def _png_size(path):
    with open(path, 'rb') as f:
        head = f.read(24)
    assert head[:8] == b'\x89PNG\r\n\x1a\n'
    assert head[12:16] == b'IHDR'
    return struct.unpack('>II', head[16:24])


def test_plot_report_writes_real_png(tmp_path):
    pytest.importorskip('matplotlib')
    trainer = _reporting_trainer(out=str(tmp_path))
    trainer.extend(extensions.PlotReport(['a', 'b'], trigger=(2, 'iteration'),
                                         filename='loss.png'))
    trainer.run()
    width, height = _png_size(tmp_path / 'loss.png')
    assert width > 100 and height > 100
    assert os.listdir(tmp_path) == ['loss.png']
    assert extensions.PlotReport.available()


def test_plot_report_serialize_round_trip():
    trainer = _reporting_trainer((3, 'iteration'))
    plot = extensions.PlotReport(['a'], trigger=(2, 'iteration'), filename='p.png')
    trainer.out = os.devnull + '_unused'
    with unittest.mock.patch('chainer.training.extensions._plot.new_figure', return_value=None):
        trainer.extend(plot)
        trainer.run()
    target = chainer.serializers.npz.serialize(plot)
    assert json.loads(str(target['_plot_p.png'])) == {'a': [[2, 1.5]]}
    fresh = extensions.PlotReport(['a'], trigger=(2, 'iteration'), filename='p.png')
    testing.save_and_load_npz(plot, fresh)
    assert fresh._data == plot._data
    assert fresh._summary.compute_mean() == plot._summary.compute_mean()


def test_plot_report_warns_once_without_matplotlib():
    from chainer.training.extensions import _plot
    with unittest.mock.patch.object(_plot, '_matplotlib', False), \
            unittest.mock.patch.object(_plot, '_warned', False):
        with pytest.warns(UserWarning, match='matplotlib') as record:
            extensions.PlotReport(['a'])
            extensions.VariableStatisticsPlot(H.Regressor())
        assert len(record) == 1
        assert not extensions.PlotReport.available()


def test_variable_statistics_plot_png(tmp_path):
    pytest.importorskip('matplotlib')
    trainer, model, _ = H.make_trainer(str(tmp_path), stop=(4, 'iteration'))
    trainer.extend(extensions.VariableStatisticsPlot(model, trigger=(2, 'iteration')))
    trainer.run()
    width, height = _png_size(tmp_path / 'statistics.png')
    assert width > 100 and height > 100


def test_dump_graph_first_iteration_only(tmp_path):
    trainer, _, _ = H.make_trainer(str(tmp_path), stop=(3, 'iteration'))
    flags = []
    trainer.extend(lambda t: flags.append(chainer.config.keep_graph_on_report), name='flag',
                   priority=1000)
    trainer.extend(extensions.DumpGraph('main/loss'))
    with chainer.using_config('keep_graph_on_report', False):
        trainer.run()
        assert chainer.config.keep_graph_on_report is False
    dot = (tmp_path / 'cg.dot').read_text()
    assert dot.startswith('digraph') and 'Linear' in dot
    assert flags == [True, False, False]


def test_evaluator_reports_means_in_test_mode_without_graph():
    data = H.dataset(10)
    model = H.Regressor()
    seen = []

    def hook(evaluator):
        seen.append('hook')

    def eval_func(x, t):
        seen.append((chainer.config.train, chainer.config.enable_backprop, len(x)))
        return model(x, t)

    it = chainer.iterators.SerialIterator(data, 4, repeat=False, shuffle=False)
    ev = extensions.Evaluator(it, model, eval_hook=hook, eval_func=eval_func)
    assert ev.default_name == 'validation' and ev.trigger == (1, 'epoch')
    for _ in range(2):  # the iterator is reset each time
        seen.clear()
        result = ev()
        assert seen == ['hook', (False, False, 4), (False, False, 4), (False, False, 2)]
    x, t = chainer.dataset.concat_examples(list(data))
    per_batch = [float(model(x[i:i + 4], t[i:i + 4]).array) for i in (0, 4, 8)]
    assert result['main/loss'] == pytest.approx(numpy.mean(per_batch))


def test_evaluator_in_trainer_reports_validation_keys(tmp_path):
    trainer, model, _ = H.make_trainer(str(tmp_path), stop=(1, 'epoch'))
    it = chainer.iterators.SerialIterator(H.dataset(6), 3, repeat=False, shuffle=False)
    trainer.extend(extensions.Evaluator(it, model))
    trainer.extend(extensions.LogReport())
    trainer.run()
    entry = trainer.get_extension('LogReport').log[0]
    assert 'validation/main/loss' in entry and 'main/loss' in entry


def test_micro_average():
    trainer = testing.get_trainer_with_mock_updater((4, 'iteration'))
    counts = [(1, 2), (3, 4), (0, 1), (2, 3)]
    results = []
    trainer.extend(lambda t: t.observation.update(
        n=counts[t.updater.iteration - 1][0], d=counts[t.updater.iteration - 1][1]),
        name='put', priority=training.PRIORITY_WRITER)
    trainer.extend(extensions.MicroAverage('n', 'd', 'acc', trigger=(2, 'iteration')))
    trainer.extend(lambda t: results.append(t.observation.get('acc')), name='get')
    trainer.run()
    assert results == [None, 4 / 6, None, 2 / 4]


def test_fail_on_nonnumber(tmp_path):
    trainer, model, _ = H.make_trainer(str(tmp_path), stop=(2, 'iteration'))
    trainer.extend(extensions.FailOnNonNumber())
    trainer.run()
    trainer, model, _ = H.make_trainer(str(tmp_path), stop=(2, 'iteration'))
    model.l2.b.array[0] = numpy.nan
    trainer.extend(extensions.FailOnNonNumber())
    with pytest.raises(RuntimeError, match='optimizer: main, param: /l[12]/'):
        trainer.run(show_loop_exception_msg=False)


def test_parameter_statistics_keys(tmp_path):
    trainer, model, _ = H.make_trainer(str(tmp_path), stop=(1, 'iteration'))
    trainer.extend(extensions.ParameterStatistics(model, trigger=(1, 'iteration'),
                                                  prefix='ps'))
    trainer.run()
    obs = trainer.observation
    assert obs['ps/None/l1/W/data/zeros'] == 0
    assert obs['ps/None/l1/W/data/max'] == pytest.approx(model.l1.W.array.max())
    assert 'ps/None/l2/b/grad/percentile/6' in obs


def test_observe_lr_and_value(tmp_path):
    trainer, _, opt = H.make_trainer(str(tmp_path), stop=(1, 'epoch'), lr=0.25)
    trainer.extend(extensions.observe_lr())
    trainer.extend(extensions.observe_value('it', lambda t: t.updater.iteration))
    trainer.extend(extensions.LogReport())
    trainer.run()
    entry = trainer.get_extension('LogReport').log[0]
    assert entry['lr'] == 0.25 and entry['it'] == 3


def test_unchain_variables(tmp_path):
    for keep in (True, False):
        trainer, _, _ = H.make_trainer(str(tmp_path), stop=(2, 'iteration'))
        kept = []
        with chainer.using_config('keep_graph_on_report', keep):
            trainer.extend(extensions.unchain_variables())
            trainer.extend(lambda t: kept.append(t.observation['main/loss']), name='keep')
            trainer.run()
        # It runs last (priority 0) and only when graphs are kept on report.
        assert [v.creator is None for v in kept] == [True, True]
        assert trainer.get_extension('unchain_variables').priority == 0


@pytest.mark.parametrize('make', [
    lambda: extensions.LogReport(trigger='bad'),
    lambda: extensions.PlotReport(['a'], trigger=(1, 'day')),
    lambda: extensions.MicroAverage('a', 'b', 'c', trigger=3),
    lambda: extensions.ParameterStatistics([], trigger='x'),
])
def test_invalid_trigger_names_the_extension(make):
    with pytest.raises((TypeError, ValueError), match='invalid trigger for [A-Z][a-zA-Z]+'):
        make()


def test_log_report_removes_its_stale_temporaries(tmp_path):
    stale = tmp_path / '.log.x1y2.tmp'
    stale.write_text('[{"partial"')
    other = tmp_path / 'notes.tmp'
    other.write_text('keep')
    trainer = _reporting_trainer((2, 'iteration'), out=str(tmp_path))
    trainer.extend(extensions.LogReport(trigger=(1, 'iteration')))
    trainer.run()
    assert not stale.exists() and other.exists()
    assert len(json.loads((tmp_path / 'log').read_text())) == 2


def test_plots_leave_pyplot_alone(tmp_path):
    pytest.importorskip('matplotlib')
    import subprocess
    import sys
    code = ('import sys, chainer; from chainer import testing; '
            'from chainer.training import extensions as E; '
            't = testing.get_trainer_with_mock_updater((2, "iteration")); '
            f't.out = {str(tmp_path)!r}; '
            't.extend(lambda t: chainer.report({"a": 1.0}), name="r", priority=300); '
            't.extend(E.PlotReport(["a"], trigger=(1, "iteration"))); t.run(); '
            'print("matplotlib.pyplot" in sys.modules)')
    src = os.path.dirname(os.path.dirname(chainer.__file__))
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=src), timeout=60)
    assert out.stdout.strip() == 'False', out.stderr
    assert (tmp_path / 'plot.png').exists()


def test_evaluator_warns_about_repeating_and_resetless_iterators():
    model = H.Regressor()
    with pytest.warns(UserWarning, match='repeat=True'):
        extensions.Evaluator(chainer.iterators.SerialIterator(H.dataset(4), 2), model)
    x, t = chainer.dataset.concat_examples(list(H.dataset(4)))

    class Batches:
        def __iter__(self):
            return iter([[(x[0], t[0]), (x[1], t[1])]])

    ev = extensions.Evaluator(Batches(), model)
    with pytest.warns(DeprecationWarning, match='reset'):
        assert 'main/loss' in ev()


def test_micro_average_resume_with_float_sums():
    trainer = testing.get_trainer_with_mock_updater((3, 'iteration'))
    trainer.extend(lambda t: t.observation.update(n=0.5, d=1.0), name='put',
                   priority=training.PRIORITY_WRITER)
    trainer.extend(extensions.MicroAverage('n', 'd', 'acc', trigger=(4, 'iteration')))
    trainer.run()
    fresh = testing.get_trainer_with_mock_updater((3, 'iteration'))
    fresh.extend(lambda t: None, name='put')
    fresh.extend(extensions.MicroAverage('n', 'd', 'acc', trigger=(4, 'iteration')))
    testing.save_and_load_npz(trainer, fresh)
    ext = fresh.get_extension('MicroAverage')
    assert (ext._numerator, ext._denominator) == (1.5, 3.0)
    assert ext._trigger._previous_iteration == 3


def test_variable_statistics_plot_with_a_pyplot_module(tmp_path):
    pytest.importorskip('matplotlib')
    from matplotlib.backends import backend_agg
    from matplotlib import figure

    class AggPyplot:  # the two pyplot calls used, on an Agg canvas
        @staticmethod
        def figure(**kwargs):
            fig = figure.Figure(**kwargs)
            backend_agg.FigureCanvasAgg(fig)
            return fig

        @staticmethod
        def close(fig):
            pass

    trainer, model, _ = H.make_trainer(str(tmp_path), stop=(2, 'iteration'))
    plot = extensions.VariableStatisticsPlot(model, trigger=(1, 'iteration'),
                                             report_grad=False)
    trainer.extend(plot)
    trainer.run()
    plot.save_plot_using_module(str(tmp_path / 'again.png'), AggPyplot)
    assert _png_size(tmp_path / 'again.png')[0] > 100
    assert extensions.VariableStatisticsPlot.available()


def test_parameter_statistics_key_template(tmp_path):
    class Short(extensions.ParameterStatistics):
        report_key_template = '{prefix}{param_name}:{attr_name}:{function_name}'

    trainer, model, _ = H.make_trainer(str(tmp_path), stop=(1, 'iteration'))
    trainer.extend(Short(model, {'max': numpy.max}, trigger=(1, 'iteration'), prefix='p',
                         report_grads=False))
    trainer.run()
    assert sorted(k for k in trainer.observation if k.startswith('p/')) == [
        'p//l1/W:data:max', 'p//l1/b:data:max', 'p//l2/W:data:max', 'p//l2/b:data:max']


def test_progress_bar_redraws_in_place_on_a_terminal(monkeypatch):
    class Tty(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setenv('TERM', 'xterm')
    out = Tty()
    trainer = _reporting_trainer((2, 'epoch'))
    trainer.extend(extensions.ProgressBar(update_interval=3, out=out))
    trainer.run()
    text = out.getvalue()
    assert text.count('\033[4A') == 2 and '\033[J' in text
    assert 'total [' in text and 'this epoch [' in text and '/ 2 epochs' in text
    assert 'Estimated time to finish' in text
