"""Every public function, link, optimizer, optimizer hook, initializer and distribution of
Chainer 7.8.1 has rows in the recorded grids.

The names come from the original's surface as recorded (``surface.json.gz``, read by
``_grids.surface``), not from rechainer's, so a name rechainer lacks still needs its row.
"""
import pytest

import _grids


def _covered():
    out = {
        'functions': {c['fn'] for c in _grids.recorded('functions')['cases']},
        'links': {c['cls'] for c in _grids.recorded('links')['cases']},
    }
    opt = _grids.recorded('optimizers')['cases']
    out['optimizers'] = {c['opt'] for c in opt}
    out['optimizer_hooks'] = {h[0] for c in opt for h in c.get('hooks', [])}
    misc = _grids.recorded('misc')['cases']
    out['initializers'] = {c['name'] for c in misc if c['kind'] == 'init'}
    out['distributions'] = {c['name'] for c in misc if c['kind'] == 'dist'}
    return out


@pytest.mark.parametrize('group', ['functions', 'links', 'optimizers', 'optimizer_hooks',
                                   'initializers', 'distributions'])
def test_every_public_name_has_a_row(group):
    surface = _grids.surface()[group]
    missing = sorted(set(surface) - _covered()[group])
    assert not missing, f'{group} of Chainer 7.8.1 without a grid row: {missing}'


def test_grid_size():
    # the grid is generated: a sanity floor that fails if a table stops expanding
    n = sum(len(_grids.recorded(s)['cases']) for s in ('functions', 'links', 'optimizers',
                                                       'misc'))
    assert n > 3500, n


def test_every_function_option_is_exercised():
    # each parameter with a default in the original's signature is given by some case,
    # by keyword or by position
    given = {}
    signatures = _grids.surface()['function_signatures']
    for case in _grids.recorded('functions')['cases']:
        if case['fn'] not in signatures:        # Python's operators (``op:add``)
            continue
        sig = signatures[case['fn']]
        names = given.setdefault(case['fn'], set())
        names.update(case.get('kwargs', {}))
        names.update(sig['positional'][:len(case['args'])])
    missing = {fn: [o for o in sig['options'] if o not in given.get(fn, ())]
               for fn, sig in _grids.surface()['function_signatures'].items()}
    missing = {fn: opts for fn, opts in missing.items() if opts}
    assert not missing, f'options no grid case gives: {missing}'


# Constructor options the link grid leaves out, and why.
_LINK_OPTIONS_NOT_GRIDDED = {
    ('Classifier', 'lossfun'): 'a callable; the default pairs with the label input',
    ('Classifier', 'accfun'): 'a callable; the default pairs with the label input',
    ('Scale', 'axis'): 'needs its own W_shape; the two-input form covers axis',
    ('Scale', 'bias_shape'): 'needs bias_term; covered by the bias row',
    ('ConvolutionND', 'groups'): 'needs divisible channels; covered for the 1-3d links',
    ('DeconvolutionND', 'groups'): 'needs divisible channels; covered for the 1-3d links',
    ('DeconvolutionND', 'outsize'): 'tied to the input size; covered for the 1-3d links',
    ('Deconvolution1D', 'outsize'): 'tied to the input size; covered by the opts row',
    ('Deconvolution3D', 'outsize'): 'tied to the input size; covered by the opts row',
    ('Deconvolution2D', 'outsize'): 'tied to the input size; covered by the opts row',
    ('ResNet50Layers', 'downsample_fb'): 'a whole model (names and shapes only)',
    ('ResNet101Layers', 'downsample_fb'): 'a whole model (names and shapes only)',
    ('ResNet152Layers', 'downsample_fb'): 'a whole model (names and shapes only)',
}


@pytest.mark.parametrize('section, key, surface_key', [
    ('links', 'cls', 'link_signatures'), ('optimizers', 'opt', 'optimizer_signatures')])
def test_every_constructor_option_is_exercised(section, key, surface_key):
    signatures = _grids.surface()[surface_key]
    given = {}
    for case in _grids.recorded(section)['cases']:
        names = given.setdefault(case[key], set())
        names.update(case.get('kwargs', {}))
        names.update(signatures[case[key]]['positional'][:len(case.get('args', ()))])
    missing = sorted((cls, o) for cls, sig in signatures.items() for o in sig['options']
                     if o not in given.get(cls, ()) and (cls, o) not in
                     _LINK_OPTIONS_NOT_GRIDDED)
    assert not missing, f'{section} options no grid case gives: {missing}'
