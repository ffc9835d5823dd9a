"""The generated N-d im2col/col2im kernels compute what conv_nd computes.

Without a GPU, each kernel's operation is compiled as plain C (a loop over the
elementwise index ``i``) with the system's C compiler and compared with
:mod:`chainer.utils.conv_nd` on small arrays.
"""
import shutil
import subprocess

import numpy
import pytest

from chainer.backends import cuda
from chainer.utils import conv_nd
from chainer.utils import conv_nd_kernel

CC = shutil.which('gcc') or shutil.which('cc')
CASES = [
    ((5,), (3,), (2,), (1,), (1,)),
    ((5, 4), (3, 2), (1, 2), (1, 0), (1, 1)),
    ((4, 5), (2, 2), (2, 1), (0, 1), (2, 1)),
    ((3, 4, 3), (2, 3, 2), (1, 1, 2), (1, 1, 0), (1, 1, 1)),
]


def _c_array(name, values):
    body = ', '.join(repr(float(v)) for v in values.ravel())
    return f'static const T {name}[{values.size}] = {{{body}}};'


def _run_kernel(kernel, raw_name, raw, ints, out_name, n_out, tmp_path):
    in_params, out_params, operation, name = kernel
    assert out_params == f'T {out_name}' and in_params.startswith(f'raw T {raw_name}, ')
    decls = '\n'.join(f'const int {k} = {v};' for k, v in ints.items())
    source = f'''#include <stdio.h>
#include <stdbool.h>
typedef double T;
{_c_array(raw_name, raw)}
int main(void) {{
{decls}
for (int i = 0; i < {n_out}; ++i) {{
T {out_name};
{{
{operation}
}}
printf("%.17g\\n", {out_name});
}}
return 0;
}}
'''
    src = tmp_path / f'{name}.c'
    exe = tmp_path / name
    src.write_text(source)
    subprocess.run([CC, '-std=c99', '-O0', '-o', str(exe), str(src)], check=True,
                   capture_output=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    return numpy.array([float(v) for v in out.split()])


def _ints(dims, outs, ksize, stride, pad, dilate):
    names = {'d': dims, 'out': outs, 'k': ksize, 's': stride, 'p': pad, 'di': dilate}
    return {f'{p}_{i}': v for p, vals in names.items() for i, v in enumerate(vals)}


@pytest.mark.skipif(CC is None, reason='no C compiler to run the kernel code on the CPU')
@pytest.mark.parametrize('dims, ksize, stride, pad, dilate', CASES)
def test_kernels_match_conv_nd(dims, ksize, stride, pad, dilate, tmp_path):
    ndim = len(dims)
    rng = numpy.random.RandomState(0)
    img = rng.uniform(-1, 1, (2, 3) + dims)
    col = conv_nd.im2col_nd_cpu(img, ksize, stride, pad, dilate=dilate)
    outs = col.shape[2 + ndim:]
    ints = _ints(dims, outs, ksize, stride, pad, dilate)

    got = _run_kernel(conv_nd_kernel.Im2colNDKernel.generate(ndim), 'img', img, ints,
                      'col', col.size, tmp_path)
    numpy.testing.assert_allclose(got.reshape(col.shape), col, rtol=1e-15)

    gcol = rng.uniform(-1, 1, col.shape)
    expected = conv_nd.col2im_nd_cpu(gcol, stride, pad, dims, dilate=dilate)
    got = _run_kernel(conv_nd_kernel.Col2imNDKernel.generate(ndim), 'col', gcol, ints,
                      'img', expected.size, tmp_path)
    numpy.testing.assert_allclose(got.reshape(expected.shape), expected, rtol=1e-12)


@pytest.mark.parametrize('kernel', [conv_nd_kernel.Im2colNDKernel, conv_nd_kernel.Col2imNDKernel])
def test_generate_is_memoized_per_ndim(kernel, monkeypatch):
    cuda.clear_memo()
    calls = []
    original = kernel._generate
    monkeypatch.setattr(kernel, '_generate', staticmethod(
        lambda ndim: calls.append(ndim) or original(ndim)))
    first = kernel.generate(3)
    assert kernel.generate(3) is first and calls == [3]
    kernel.generate(2)
    assert calls == [3, 2]
    assert first[3].endswith('_3d')
