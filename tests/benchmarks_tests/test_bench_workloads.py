"""benchmarks/bench_workloads.py keeps running: a quick round in fresh processes, rechainer only.

No timings are asserted (they mean nothing on a shared machine); the checks are
that the children run, report times and peak memory, that a framework that is
missing is skipped with a line, and that the cross-check against PyTorch holds.
"""
import importlib.util
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, 'benchmarks', 'bench_workloads.py')


def _module():
    spec = importlib.util.spec_from_file_location('bench_workloads', SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(*args):
    out = subprocess.run([sys.executable, SCRIPT, '--quick', '--rounds', '1', *args],
                         capture_output=True, text=True, timeout=600)
    return out.returncode, out.stdout + out.stderr


@pytest.fixture(scope='module')
def quick_run(tmp_path_factory):
    path = tmp_path_factory.mktemp('bench') / 'out.json'
    rc, output = _run('--workloads', 'chain,mlp-small-static', '--frameworks',
                      'rechainer,chainer7', '--reference', '/nonexistent/python',
                      '--json', str(path))
    assert rc == 0, output
    with open(path) as f:
        return json.load(f), output


def test_quick_run_reports_time_and_memory(quick_run):
    report, output = quick_run
    chain = report['summary']['chain']
    assert chain['unit'] == 'us/op'
    assert chain['time']['rechainer'] > 0
    assert chain['maxrss_mb']['rechainer'] > 0
    record, = report['records']['chain']['rechainer']
    assert record['steps'] >= 2 and record['version']
    assert 'load average' in output


def test_static_variant_runs_or_says_why(quick_run):
    static = quick_run[0]['summary']['mlp-small-static']
    if 'rechainer' not in static['time']:
        assert 'static_graph' in static['not_available']['rechainer']


def test_missing_framework_is_skipped_with_a_line(quick_run):
    report, output = quick_run
    assert 'skipping chainer7: cannot run /nonexistent/python' in output
    assert 'chainer7' not in report['summary']['chain']['time']


def test_unknown_workload_is_an_error():
    rc, output = _run('--workloads', 'chain,nonsense')
    assert rc == 2 and 'unknown workload(s) nonsense' in output


@pytest.mark.parametrize('ours, theirs, expected', [
    ([2.0, 3.0, 4.0], [1.0, 1.0, 2.0], (2.0, 2.0, 3.0)),
    ([2.0, None, 4.0], [1.0, 1.0, None], (2.0, 2.0, 2.0)),  # only rounds that have both
])
def test_ratio_summary_pairs_rounds(ours, theirs, expected):
    s = _module().ratio_summary(ours, theirs)
    assert (s['median'], s['min'], s['max']) == expected


def test_ratio_summary_without_pairs():
    assert _module().ratio_summary([1.0], [None]) is None


def test_cross_check_against_pytorch():
    pytest.importorskip('torch')
    # As the script runs it: in a child, so torch stays out of this process.
    out = subprocess.run([sys.executable, SCRIPT, '--child', 'cross-check', 'rechainer'],
                         capture_output=True, text=True, timeout=600)
    mark = _module().RESULT_MARK
    record, = [json.loads(line[len(mark):]) for line in out.stdout.splitlines()
               if line.startswith(mark)]
    assert record['ok'], record['message']


@pytest.mark.parametrize('clock', ['wall', 'cpu'])
def test_measure_times_steps_by_either_clock(clock):
    # The CPU clock is the steadier one on a loaded machine; both must time real work.
    median, steps = _module().measure(lambda: sum(range(20000)), 0, True, clock)
    assert median > 0 and steps >= 2
