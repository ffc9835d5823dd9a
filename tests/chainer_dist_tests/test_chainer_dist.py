"""chainer-dist/: the code-less distribution named ``chainer`` that stands in for Chainer 7.8.1."""
import os
import subprocess
import sys
import textwrap
import tomllib

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHIM = os.path.join(ROOT, 'chainer-dist')


def _project(path):
    with open(os.path.join(path, 'pyproject.toml'), 'rb') as f:
        return tomllib.load(f)


def test_metadata():
    shim = _project(SHIM)['project']
    rechainer = _project(ROOT)['project']
    assert shim['name'] == 'chainer'
    # Chainer's version with rechainer's as the local label, so the two move together.
    assert shim['version'] == f"7.8.1+rechainer.{rechainer['version']}"
    deps = shim['dependencies']
    assert 'rechainer' in deps
    # What Chainer 7.8.1 itself requires at run time (add-ons import these unannounced).
    names = {d.split('>')[0].split('=')[0].split('<')[0] for d in deps}
    assert {'filelock', 'six', 'protobuf', 'typing-extensions', 'setuptools'} <= names
    assert shim['requires-python'] == rechainer['requires-python']


def test_ships_no_code():
    config = _project(SHIM)
    assert config['tool']['setuptools']['packages'] == []
    # (pip's build of the local path may leave build/ and *.egg-info behind.)
    files = [f for f in os.listdir(SHIM) if f != 'build' and not f.endswith('.egg-info')]
    assert sorted(files) == ['README.md', 'pyproject.toml']


def test_version_meets_addon_requirements():
    packaging = pytest.importorskip('packaging.specifiers')
    from packaging.version import Version
    version = Version(_project(SHIM)['project']['version'])
    for spec in ('>=4.0.0', '>=6.0.0', '>=7.0.0,<8', '==7.8.1', '~=7.8'):
        assert version in packaging.SpecifierSet(spec), spec
    assert version not in packaging.SpecifierSet('>=8')


CHECK_CHAINERRL = textwrap.dedent('''
    import importlib.metadata, sys, types
    import gym, gym.wrappers
    # ChainerRL 0.8.0 subclasses gym's Monitor, which gym 0.22 removed; the gyms that
    # had it no longer build. Stand-ins, so that the import reaches rechainer's API.
    gym.wrappers.Monitor = type('Monitor', (gym.Wrapper,), {})
    stats = types.ModuleType('gym.wrappers.monitoring.stats_recorder')
    stats.StatsRecorder = type('StatsRecorder', (), {})
    sys.modules[stats.__name__] = stats
    import numpy as np
    import chainer
    import chainerrl
    assert importlib.metadata.version('chainer').startswith('7.8.1+rechainer')
    assert importlib.metadata.distribution('rechainer').locate_file('chainer/__init__.py') \\
        .samefile(chainer.__file__), chainer.__file__
    q = chainerrl.q_functions.FCStateQFunctionWithDiscreteAction(4, 2, 32, 2)
    opt = chainer.optimizers.Adam(1e-3)
    opt.setup(q)
    agent = chainerrl.agents.DQN(
        q, opt, chainerrl.replay_buffer.ReplayBuffer(1000), 0.99,
        chainerrl.explorers.ConstantEpsilonGreedy(0.1, lambda: np.random.randint(2)),
        replay_start_size=10, update_interval=1, target_update_interval=5, minibatch_size=4)
    obs, reward = np.zeros(4, np.float32), 0.
    for _ in range(40):
        reward = float(agent.act_and_train(obs, reward))
        obs = np.random.rand(4).astype(np.float32)
    agent.stop_episode_and_train(obs, reward, True)
    stats = dict(agent.get_statistics())
    assert stats['n_updates'] == 30 and np.isfinite(stats['average_loss']), stats
    print('chainerrl ok', stats)
''')


@pytest.mark.slow
def test_chainerrl_installs_and_trains(tmp_path):
    # Plain pip in a fresh venv: rechainer and the shim from this checkout, then
    # ChainerRL 0.8.0's sdist from PyPI, whose install_requires has chainer>=4.0.0.
    venv = tmp_path / 'venv'
    subprocess.run([sys.executable, '-m', 'venv', str(venv)], check=True)
    pip = [str(venv / 'bin' / 'python'), '-m', 'pip', 'install', '-q']

    def run(args):
        proc = subprocess.run(args, capture_output=True, text=True, timeout=900)
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        return proc.stdout

    run(pip + [ROOT, SHIM])
    # ChainerRL calls float() on 1-element arrays, which NumPy 2 refuses.
    run(pip + ['--no-binary', 'chainerrl', 'chainerrl==0.8.0', 'numpy<2'])
    listing = run([str(venv / 'bin' / 'python'), '-m', 'pip', 'list'])
    assert 'chainerrl' in listing and '7.8.1+rechainer' in listing
    out = run([str(venv / 'bin' / 'python'), '-W', 'ignore', '-c', CHECK_CHAINERRL])
    assert 'chainerrl ok' in out
