"""chainer._malloc: freed array memory stays in the process between steps (glibc only)."""
import os
import platform
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith('linux') or platform.libc_ver()[0] != 'glibc',
    reason='the allocator tuning applies to glibc on Linux only')

# Each round allocates four 6 MB arrays and frees them: with glibc's defaults the free
# memory at the top of the heap (24 MB, over twice the largest array) goes back to the
# kernel, and the next round faults it in again page by page.
_PROGRAM = '''
import resource, sys
import numpy
import chainer
arrays = None
for i in range(3):
    arrays = [numpy.ones(1536 * 1024, numpy.float32) for _ in range(4)]
    arrays = None
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for i in range(20):
    arrays = [numpy.ones(1536 * 1024, numpy.float32) for _ in range(4)]
    arrays = None
faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
print(chainer._malloc.tuned, faults // 20)
'''


def _run(**env):
    full = {k: v for k, v in os.environ.items()
            if not k.startswith('MALLOC_') and k not in ('GLIBC_TUNABLES',
                                                          'RECHAINER_MALLOC_TUNING')}
    full.update(env)
    out = subprocess.run([sys.executable, '-c', _PROGRAM], env=full, capture_output=True,
                         text=True, timeout=120, check=True).stdout.split()
    return out[0] == 'True', int(out[1])


@pytest.mark.parametrize('env,tuned', [
    ({}, True),
    ({'RECHAINER_MALLOC_TUNING': '0'}, False),
    ({'MALLOC_TRIM_THRESHOLD_': '1000000'}, False),
    ({'GLIBC_TUNABLES': 'glibc.malloc.trim_threshold=1000000'}, False),
])
def test_tuning_keeps_freed_arrays_mapped_unless_the_user_decides(env, tuned):
    got, faults_per_round = _run(**env)
    assert got is tuned
    # 4 x 6 MB is ~6,000 pages: untuned, most of them fault again at every round.
    if tuned:
        assert faults_per_round < 100
    elif not env.get('MALLOC_TRIM_THRESHOLD_') and not env.get('GLIBC_TUNABLES'):
        assert faults_per_round > 1000
