import io
import re

import numpy

import chainer
import chainer.links as L
from chainer.link_hooks import TimerHook


def test_records_nested_calls_and_reports():
    model = chainer.Sequential(L.Linear(2, 3), L.Linear(3, 1))
    hook = TimerHook()
    with hook:
        model(numpy.ones((1, 2), numpy.float32))
    names = [name for name, _ in hook.call_history]
    assert names == ['Linear', 'Linear', 'Sequential']
    times = [t for _, t in hook.call_history]
    assert hook.total_time() == times[2] and times[0] + times[1] <= times[2]
    summary = hook.summary()
    assert summary['Linear']['occurrence'] == 2
    out = io.StringIO()
    hook.print_report(unit='us', file=out)
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ['LinkName', 'ElapsedTime', 'Occurrence']
    assert re.search(r'Linear +[.0-9]+us +2', lines[1])
