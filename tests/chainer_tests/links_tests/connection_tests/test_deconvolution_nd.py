"""L.DeconvolutionND, L.Deconvolution1D and L.Deconvolution3D: the case table."""
import chainer.links as L
from chainer_tests.links_tests import _cases


@_cases.cases('Deconvolution1D', 'Deconvolution3D', 'DeconvolutionND')
class TestDeconvolutionND(_cases.LinkTest):
    pass


TestDeconvolutionNDChecks = _cases.checks('Deconvolution1D', 'Deconvolution3D', 'DeconvolutionND',
                                          lazy=('DeconvolutionND',))


def test_module_paths():
    for name in ('DeconvolutionND', 'Deconvolution1D', 'Deconvolution3D'):
        assert getattr(L, name).__module__ == 'chainer.links.connection.deconvolution_nd'
