import unittest.mock

import pytest

from chainer import testing
from chainer.training import extensions

MAKERS = {
    'exponential': lambda opt: extensions.ExponentialShift('x', 0.5, init=2.0, optimizer=opt),
    'exponential_target': lambda opt: extensions.ExponentialShift(
        'x', 0.5, init=2.0, target=0.3, optimizer=opt),
    'inverse': lambda opt: extensions.InverseShift('x', 0.5, 1.0, init=2.0, optimizer=opt),
    'linear': lambda opt: extensions.LinearShift('x', (1.0, 3.0), (1, 5), optimizer=opt),
    'multistep': lambda opt: extensions.MultistepShift('x', 0.1, [2, 4], 1.0, optimizer=opt),
    'polynomial': lambda opt: extensions.PolynomialShift('x', 0.5, 6, init=2.0,
                                                         optimizer=opt),
    'step': lambda opt: extensions.StepShift('x', 0.5, 2, init=2.0, optimizer=opt),
    'warmup': lambda opt: extensions.WarmupShift('x', 0.0, 4, 1.0, optimizer=opt),
}

EXPECTED = {
    'exponential': [2.0, 1.0, 0.5, 0.25, 0.125, 0.0625, 0.03125],
    'exponential_target': [2.0, 1.0, 0.5, 0.3, 0.3, 0.3, 0.3],
    'inverse': [2.0, 2 / 1.5, 1.0, 2 / 2.5, 2 / 3, 2 / 3.5, 0.5],
    'linear': [1.0, 1.0, 1.5, 2.0, 2.5, 3.0, 3.0],
    'multistep': [1.0, 1.0, 0.1, 0.1, 0.01, 0.01, 0.01],
    'polynomial': [2.0 * (1 - t / 6) ** 0.5 for t in range(7)],
    'step': [2.0, 2.0, 1.0, 1.0, 0.5, 0.5, 0.25],
    'warmup': [0.0, 0.25, 0.5, 0.75, 1.0, 1.0, 1.0],
}


def _values(ext, opt, trainer, n, initialize=True, attr='x'):
    if initialize:
        ext.initialize(trainer)
    values = [getattr(opt, attr)]
    for _ in range(n):
        trainer.updater.update()
        ext(trainer)
        values.append(getattr(opt, attr))
    return values


@pytest.mark.parametrize('kind', sorted(MAKERS))
def test_shift_values(kind):
    opt = unittest.mock.Mock()
    trainer = testing.get_trainer_with_mock_updater()
    got = _values(MAKERS[kind](opt), opt, trainer, 6)
    assert got == pytest.approx(EXPECTED[kind])


@pytest.mark.parametrize('kind', sorted(MAKERS))
def test_shift_resume_continues_where_it_was(kind):
    opt = unittest.mock.Mock()
    trainer = testing.get_trainer_with_mock_updater((3, 'iteration'))
    ext = MAKERS[kind](opt)
    trainer.extend(ext)
    trainer.run()
    new_opt = unittest.mock.Mock()
    new_opt.x = 123.0
    new_trainer = testing.get_trainer_with_mock_updater((3, 'iteration'))
    new_ext = MAKERS[kind](new_opt)
    new_trainer.extend(new_ext)
    testing.save_and_load_npz(trainer, new_trainer)
    new_ext.initialize(new_trainer)
    assert new_opt.x == pytest.approx(EXPECTED[kind][3])
    rest = _values(new_ext, new_opt, new_trainer, 3, initialize=False)
    assert rest == pytest.approx(EXPECTED[kind][3:])


def test_shift_uses_main_optimizer_and_its_value_as_init():
    opt = unittest.mock.Mock()
    opt.lr = 0.8
    trainer = testing.get_trainer_with_mock_updater()
    trainer.updater.get_optimizer.return_value = opt
    ext = extensions.ExponentialShift('lr', 0.5)
    assert _values(ext, opt, trainer, 2, attr='lr') == [0.8, 0.4, 0.2]
    trainer.updater.get_optimizer.assert_called_with('main')


def test_shift_bad_arguments():
    with pytest.raises(ValueError, match='rate'):
        extensions.ExponentialShift('lr', -1)
    with pytest.raises(ValueError, match='gamma'):
        extensions.InverseShift('lr', -1, 1)
