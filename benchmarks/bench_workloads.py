"""Training and inference workloads side by side: rechainer, Chainer 7.8.1, PyTorch, NumPy.

The workloads (each written once in the Chainer API, run unchanged by rechainer
and by the original Chainer 7.8.1, and once in PyTorch's eager mode):

- ``mlp-small``: 784-100-100-10 MLP training step, Adam, batch 32;
- ``mlp-large``: 784-1000-1000-10 MLP training step, MomentumSGD, batch 256;
- ``cnn``: LeNet-like CNN step (conv 1->32->64 3x3, max pooling, two linear
  layers) on 28x28 images, Adam, batch 64;
- ``lstm-lm``: EmbedID-LSTM(200)-Linear(1000) language model, 35 steps of
  truncated backprop through time and one SGD update (gradient clipping 5),
  batch 20 (PyTorch: ``nn.LSTMCell`` stepped the same way);
- ``chain``: 200 chained elementwise operations on a (10, 10) array, forward
  and backward, reported per operation;
- ``double-backprop``: ``chainer.grad(..., enable_double_backprop=True)`` of a
  tanh MLP 32-128-128-1 with respect to its input (batch 64), then backward of
  the gradient's norm (PyTorch: ``torch.autograd.grad(create_graph=True)``);
- ``mlp-large-infer``: inference of the large MLP (``no_backprop_mode`` /
  ``torch.no_grad``);
- ``chain-static``, ``mlp-small-static``: the same two workloads with the
  model's ``forward`` under ``chainer.static_graph``, where the framework has
  it ("not available" otherwise); PyTorch and NumPy run them in eager mode.

The NumPy floor (the same arithmetic written by hand, which no framework beats
with this BLAS) exists for both MLP steps, the inference and the chain.

Each (round, workload, framework) runs in a fresh process that prints one JSON
record: the median time per step after a warm-up (per operation for the
chains) and the process's peak memory (``ru_maxrss``, which includes the
framework's import; Linux carries it over from the parent, which therefore
imports neither framework). Rounds are interleaved (round r runs every framework
before round r+1) and the children get one BLAS/OpenMP thread. The summary
gives, per workload, each framework's median time and the medians of the
per-round ratios rechainer/PyTorch, rechainer/Chainer 7.8.1 and
rechainer/NumPy with their spread (min-max), and the load average before and
after. A cross-check first runs one Adam step of the small MLP from the same
weights and data in rechainer and PyTorch and requires equal parameters
(1e-5); the exit status is non-zero when it fails or a child fails.

    python benchmarks/bench_workloads.py [--rounds 5] [--workloads cnn,chain]
        [--frameworks rechainer,torch] [--reference PYTHON] [--clock wall|cpu] [--json OUT]
        [--quick]
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

import numpy as np

FRAMEWORKS = ('rechainer', 'torch', 'chainer7', 'numpy')
REFERENCE = os.path.expanduser('~/.cache/chainer-7.8.1-reference/bin/python')
THREAD_VARS = ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'MKL_NUM_THREADS')
RESULT_MARK = 'BENCH-RESULT '   # Chainer 7's static graph prints to stdout too

SMALL = (784, 100, 100, 10)
LARGE = (784, 1000, 1000, 10)
VOCAB, UNITS, BPTT, LM_BATCH = 1000, 200, 35, 20
N_OPS = 200


class NotAvailable(Exception):
    """The framework lacks what a workload needs (e.g. ``chainer.static_graph``)."""


# -- data: the same arrays for every framework --------------------------------------------

def mlp_data(units, batch, seed=0):
    rng = np.random.RandomState(seed)
    x = rng.rand(batch, units[0]).astype(np.float32)
    t = rng.randint(0, units[-1], batch).astype(np.int32)
    return x, t


def cnn_data(seed=0):
    rng = np.random.RandomState(seed)
    return (rng.rand(64, 1, 28, 28).astype(np.float32),
            rng.randint(0, 10, 64).astype(np.int32))


def lm_data(seed=0):
    """Token ids, one row per time step: row i is the input, row i + 1 its target."""
    return np.random.RandomState(seed).randint(0, VOCAB, (BPTT + 1, LM_BATCH)).astype(np.int32)


def double_backprop_data(seed=0):
    return np.random.RandomState(seed).normal(size=(64, 32)).astype(np.float32)


def chain_data(seed=0):
    return np.random.RandomState(seed).uniform(-1, 1, (10, 10)).astype(np.float32)


def chain_ops(h, tanh):
    """The 200 elementwise operations (times 2, plus 1, tanh, negation), on any array type."""
    for _ in range(N_OPS // 4):
        h = -tanh(h * 2 + 1)
    return h


# -- the Chainer API: rechainer and Chainer 7.8.1 run this same code ---------------------

def _static_graph():
    import chainer
    try:
        return chainer.static_graph
    except (AttributeError, ImportError) as e:
        raise NotAvailable(str(e)) from None


def _chainer_mlp(units, static=False):
    import chainer
    import chainer.functions as F
    import chainer.links as L

    class MLP(chainer.Chain):     # static_graph takes a Chain, not a ChainList
        def __init__(self):
            super().__init__()
            self.layers = [L.Linear(a, b) for a, b in zip(units[:-1], units[1:])]
            with self.init_scope():
                for i, layer in enumerate(self.layers):
                    setattr(self, f'l{i}', layer)

        def forward(self, x):
            for layer in self.layers[:-1]:
                x = F.relu(layer(x))
            return self.layers[-1](x)

    if static:
        MLP.forward = _static_graph()(MLP.forward)
    return MLP()


def chainer_mlp_step(units, batch, optimizer, static=False):
    import chainer
    import chainer.functions as F
    np.random.seed(0)
    model = _chainer_mlp(units, static)
    opt = getattr(chainer.optimizers, optimizer)()
    opt.setup(model)
    x, t = mlp_data(units, batch)
    return lambda: opt.update(lambda: F.softmax_cross_entropy(model(x), t))


def chainer_mlp_infer(units, batch):
    import chainer
    np.random.seed(0)
    model = _chainer_mlp(units)
    x, _ = mlp_data(units, batch)

    def step():
        with chainer.no_backprop_mode():
            return model(x)
    return step


def chainer_cnn_step():
    import chainer
    import chainer.functions as F
    import chainer.links as L

    class CNN(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.conv1 = L.Convolution2D(1, 32, 3)
                self.conv2 = L.Convolution2D(32, 64, 3)
                self.fc1 = L.Linear(64 * 6 * 6, 128)   # pooling covers all: 11 -> 6
                self.fc2 = L.Linear(128, 10)

        def forward(self, x):
            h = F.max_pooling_2d(F.relu(self.conv1(x)), 2)
            h = F.max_pooling_2d(F.relu(self.conv2(h)), 2)
            return self.fc2(F.relu(self.fc1(h)))

    np.random.seed(0)
    model = CNN()
    opt = chainer.optimizers.Adam()
    opt.setup(model)
    x, t = cnn_data()
    return lambda: opt.update(lambda: F.softmax_cross_entropy(model(x), t))


def chainer_lm_step():
    import chainer
    import chainer.functions as F
    import chainer.links as L

    class LM(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.embed = L.EmbedID(VOCAB, UNITS)
                self.rnn = L.LSTM(UNITS, UNITS)
                self.out = L.Linear(UNITS, VOCAB)

        def forward(self, x):
            return self.out(self.rnn(self.embed(x)))

    np.random.seed(0)
    model = LM()
    opt = chainer.optimizers.SGD(lr=1.0)
    opt.setup(model)
    opt.add_hook(chainer.optimizer_hooks.GradientClipping(5.0))
    tokens = lm_data()

    def step():
        # The LSTM's state runs on from the previous update (truncated BPTT).
        loss = 0
        for i in range(BPTT):
            loss += F.softmax_cross_entropy(model(tokens[i]), tokens[i + 1])
        model.cleargrads()
        loss.backward()
        loss.unchain_backward()
        opt.update()
    return step


def chainer_double_backprop_step():
    import chainer
    import chainer.functions as F
    import chainer.links as L

    class TanhMLP(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = L.Linear(32, 128)
                self.l2 = L.Linear(128, 128)
                self.l3 = L.Linear(128, 1)

        def forward(self, x):
            return self.l3(F.tanh(self.l2(F.tanh(self.l1(x)))))

    np.random.seed(0)
    model = TanhMLP()
    x0 = double_backprop_data()

    def step():
        x = chainer.Variable(x0)
        gx, = chainer.grad([F.sum(model(x))], [x], enable_double_backprop=True)
        norm = F.mean(F.sqrt(F.sum(gx * gx, axis=1)))
        model.cleargrads()
        norm.backward()
    return step


def chainer_chain_grad(x0, forward=None):
    """Forward and backward of the 200-op chain; returns the input's gradient."""
    import chainer
    import chainer.functions as F
    x = chainer.Variable(x0)
    y = forward(x) if forward else chain_ops(x, F.tanh)
    y.grad = np.ones_like(y.array)
    y.backward()
    return x.grad


def chainer_chain_step(static=False):
    import chainer
    import chainer.functions as F
    forward = None
    if static:
        class Chain(chainer.Chain):
            def forward(self, x):
                return chain_ops(x, F.tanh)
        Chain.forward = _static_graph()(Chain.forward)
        forward = Chain()
    x0 = chain_data()
    return lambda: chainer_chain_grad(x0, forward)


# -- PyTorch, eager ----------------------------------------------------------------------

def _torch_mlp(units):
    from torch import nn
    layers = []
    for a, b in zip(units[:-1], units[1:]):
        layers += [nn.Linear(a, b), nn.ReLU()]
    return nn.Sequential(*layers[:-1])


def _torch_train_step(model, opt, x, t):
    import torch
    x, t = torch.from_numpy(x), torch.from_numpy(t).long()

    def step():
        opt.zero_grad()
        torch.nn.functional.cross_entropy(model(x), t).backward()
        opt.step()
    return step


def torch_mlp_step(units, batch, optimizer):
    import torch
    model = _torch_mlp(units)
    if optimizer == 'Adam':
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    else:
        opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    return _torch_train_step(model, opt, *mlp_data(units, batch))


def torch_mlp_infer(units, batch):
    import torch
    model = _torch_mlp(units)
    x = torch.from_numpy(mlp_data(units, batch)[0])

    def step():
        with torch.no_grad():
            return model(x)
    return step


def torch_cnn_step():
    import torch
    from torch import nn
    model = nn.Sequential(
        nn.Conv2d(1, 32, 3), nn.ReLU(), nn.MaxPool2d(2),
        # ceil_mode: Chainer's pooling covers all of the 11x11 input (6x6 out)
        nn.Conv2d(32, 64, 3), nn.ReLU(), nn.MaxPool2d(2, ceil_mode=True),
        nn.Flatten(), nn.Linear(64 * 6 * 6, 128), nn.ReLU(), nn.Linear(128, 10))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    return _torch_train_step(model, opt, *cnn_data())


def torch_lm_step():
    import torch
    from torch import nn
    embed, cell = nn.Embedding(VOCAB, UNITS), nn.LSTMCell(UNITS, UNITS)
    out = nn.Linear(UNITS, VOCAB)
    params = [*embed.parameters(), *cell.parameters(), *out.parameters()]
    opt = torch.optim.SGD(params, lr=1.0)
    tokens = torch.from_numpy(lm_data()).long()
    state = [None]

    def step():
        hc = state[0]
        loss = 0
        for i in range(BPTT):
            hc = cell(embed(tokens[i]), hc)
            loss = loss + nn.functional.cross_entropy(out(hc[0]), tokens[i + 1])
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(params, 5.0)
        opt.step()
        state[0] = (hc[0].detach(), hc[1].detach())
    return step


def torch_double_backprop_step():
    import torch
    from torch import nn
    model = nn.Sequential(nn.Linear(32, 128), nn.Tanh(), nn.Linear(128, 128), nn.Tanh(),
                          nn.Linear(128, 1))
    x0 = double_backprop_data()

    def step():
        x = torch.from_numpy(x0).requires_grad_()
        gx, = torch.autograd.grad(model(x).sum(), x, create_graph=True)
        norm = (gx * gx).sum(1).sqrt().mean()
        model.zero_grad()
        norm.backward()
    return step


def torch_chain_step():
    import torch
    x0 = chain_data()

    def step():
        x = torch.from_numpy(x0).requires_grad_()
        y = chain_ops(x, torch.tanh)
        y.backward(torch.ones_like(y))
        return x.grad
    return step


# -- NumPy floors: the same arithmetic by hand ---------------------------------------------

def _numpy_mlp_params(units, seed=0):
    rng = np.random.RandomState(seed)
    Ws = [rng.normal(0, np.sqrt(1 / a), (b, a)).astype(np.float32)
          for a, b in zip(units[:-1], units[1:])]
    return Ws, [np.zeros(b, np.float32) for b in units[1:]]


def _numpy_mlp_forward(x, Ws, bs):
    """Hidden activations (input first) and logits of the ReLU MLP."""
    hs = [x]
    for i, (W, b) in enumerate(zip(Ws, bs)):
        h = hs[-1] @ W.T
        h += b
        if i < len(Ws) - 1:
            np.maximum(h, 0, out=h)
        hs.append(h)
    return hs


def numpy_mlp_infer(units, batch):
    Ws, bs = _numpy_mlp_params(units)
    x, _ = mlp_data(units, batch)
    return lambda: _numpy_mlp_forward(x, Ws, bs)[-1]


def numpy_mlp_step(units, batch, optimizer):
    """Forward, softmax cross entropy, backward and the update rule, in place."""
    Ws, bs = _numpy_mlp_params(units)
    params = [p for pair in zip(Ws, bs) for p in pair]
    state = [[np.zeros_like(p) for p in params] for _ in range(2)]
    x, t = mlp_data(units, batch)
    onehot = np.eye(units[-1], dtype=np.float32)[t]
    adam = optimizer == 'Adam'
    count = [0]

    def step():
        hs = _numpy_mlp_forward(x, Ws, bs)
        y = hs.pop()
        y -= y.max(axis=1, keepdims=True)
        np.exp(y, out=y)
        y /= y.sum(axis=1, keepdims=True)
        gy = (y - onehot) / batch
        grads = [None] * len(params)
        for i in range(len(Ws) - 1, -1, -1):
            grads[2 * i] = gy.T @ hs[i]
            grads[2 * i + 1] = gy.sum(axis=0)
            if i:
                gy = gy @ Ws[i]
                gy *= hs[i] > 0
        count[0] += 1
        alpha_t = 0.001 * np.sqrt(1 - 0.999 ** count[0]) / (1 - 0.9 ** count[0])
        for p, g, m, v in zip(params, grads, state[0], state[1]):
            if adam:
                m += 0.1 * (g - m)
                v += 0.001 * (g * g - v)
                d = np.sqrt(v)
                d += 1e-8
                np.divide(m, d, out=d)
                d *= alpha_t
                p -= d
            else:
                m *= 0.9
                m -= 0.01 * g
                p += m
    return step


def numpy_chain_grad(x0):
    """The 200-op chain with a hand-written backward; returns the input's gradient."""
    ys = []
    h = x0
    for _ in range(N_OPS // 4):
        h = np.tanh(h * 2 + 1)
        ys.append(h)
        h = -h
    g = np.ones_like(h)
    for y in reversed(ys):
        g = -g
        g = g * (1 - y * y)
        g = g * 2
    return g


def numpy_chain_step():
    x0 = chain_data()
    return lambda: numpy_chain_grad(x0)


# -- the workloads --------------------------------------------------------------------------

class Workload:
    """One workload: its title, time unit and a step builder per framework.

    ``chainer`` serves both rechainer and Chainer 7.8.1; a builder returns a
    callable that runs one step. ``ops`` divides the step time (per-op figures).
    """

    def __init__(self, title, chainer, torch, numpy=None, ops=1):
        self.title, self.ops = title, ops
        self.builders = {'rechainer': chainer, 'chainer7': chainer, 'torch': torch,
                         'numpy': numpy}
        self.unit = 'us/op' if ops > 1 else 'ms/step'


def _bind(fn, *args, **kwargs):
    return lambda: fn(*args, **kwargs)


WORKLOADS = {
    'mlp-small': Workload(
        '784-100-100-10 MLP step, Adam, batch 32',
        _bind(chainer_mlp_step, SMALL, 32, 'Adam'), _bind(torch_mlp_step, SMALL, 32, 'Adam'),
        _bind(numpy_mlp_step, SMALL, 32, 'Adam')),
    'mlp-large': Workload(
        '784-1000-1000-10 MLP step, MomentumSGD, batch 256',
        _bind(chainer_mlp_step, LARGE, 256, 'MomentumSGD'),
        _bind(torch_mlp_step, LARGE, 256, 'MomentumSGD'),
        _bind(numpy_mlp_step, LARGE, 256, 'MomentumSGD')),
    'cnn': Workload(
        'LeNet-like CNN step, Adam, batch 64', chainer_cnn_step, torch_cnn_step),
    'lstm-lm': Workload(
        'EmbedID-LSTM(200)-Linear(1000) LM, 35-step BPTT update, batch 20',
        chainer_lm_step, torch_lm_step),
    'chain': Workload(
        '200 chained elementwise ops, forward+backward, per op',
        chainer_chain_step, torch_chain_step, numpy_chain_step, ops=N_OPS),
    'double-backprop': Workload(
        'double backprop, tanh MLP 32-128-128-1, batch 64',
        chainer_double_backprop_step, torch_double_backprop_step),
    'mlp-large-infer': Workload(
        'inference of the 784-1000-1000-10 MLP, batch 256',
        _bind(chainer_mlp_infer, LARGE, 256), _bind(torch_mlp_infer, LARGE, 256),
        _bind(numpy_mlp_infer, LARGE, 256)),
    'chain-static': Workload(
        'the 200-op chain under static_graph (torch, numpy: eager), per op',
        _bind(chainer_chain_step, static=True), torch_chain_step, numpy_chain_step, ops=N_OPS),
    'mlp-small-static': Workload(
        'the small MLP step under static_graph (torch, numpy: eager)',
        _bind(chainer_mlp_step, SMALL, 32, 'Adam', static=True),
        _bind(torch_mlp_step, SMALL, 32, 'Adam'), _bind(numpy_mlp_step, SMALL, 32, 'Adam')),
}


# -- the child: one workload, one framework, one fresh process --------------------------

def _check_framework(framework):
    """Imports the framework and returns its version; raises NotAvailable if it is not there."""
    try:
        if framework == 'torch':
            import torch
            torch.set_num_threads(1)
            return torch.__version__
        if framework == 'numpy':
            return np.__version__
        import chainer
    except ImportError as e:
        raise NotAvailable(f'{framework} is not installed ({e})') from None
    ours = getattr(chainer, 'rechainer_version', None)
    if framework == 'rechainer' and ours is None:
        raise NotAvailable(f'the chainer imported by {sys.executable} is not rechainer')
    if framework == 'chainer7' and (ours is not None or chainer.__version__ != '7.8.1'):
        raise NotAvailable(f'the chainer imported by {sys.executable} is not Chainer 7.8.1')
    return ours or chainer.__version__


CLOCKS = {'wall': time.perf_counter, 'cpu': time.process_time}


def measure(step, seconds, quick, clock='wall'):
    """Median seconds per step, after a warm-up, over at least ``seconds`` of steps.

    ``clock``: ``'wall'`` times each step by the wall clock; ``'cpu'`` by the CPU time of
    the process, which on a loaded machine leaves out the time spent waiting for a core
    (the children run one thread each, so it is the same quantity when the machine is idle).
    """
    now = CLOCKS[clock]
    warmup_steps, warmup_s, min_steps = (1, 0, 2) if quick else (3, 0.2, 10)
    start = time.perf_counter()
    n = 0
    while n < warmup_steps or time.perf_counter() - start < warmup_s:
        step()
        n += 1
    times = []
    start = time.perf_counter()
    while len(times) < min_steps or time.perf_counter() - start < seconds:
        t = now()
        step()
        times.append(now() - t)
    return statistics.median(times), len(times)


def run_child(workload, framework, seconds, quick, clock='wall'):
    record = {'workload': workload, 'framework': framework}
    try:
        record['version'] = _check_framework(framework)
        if workload == 'cross-check':
            _check_framework('torch')
            record['ok'], record['message'] = cross_check()
        elif workload != 'probe':
            wl = WORKLOADS[workload]
            step = wl.builders[framework]()
            median, steps = measure(step, seconds, quick, clock)
            unit_scale = 1e6 / wl.ops if wl.ops > 1 else 1e3
            record.update(time=median * unit_scale, unit=wl.unit, steps=steps)
        record['maxrss_mb'] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        record['available'] = True
    except NotAvailable as e:
        record.update(available=False, reason=str(e))
    print(RESULT_MARK + json.dumps(record), flush=True)


# -- the parent: rounds, ratios and the table ---------------------------------------------

def _child_env(framework):
    env = dict(os.environ)
    env.update({var: '1' for var in THREAD_VARS})
    if framework == 'chainer7':
        # A PYTHONPATH that points this Python at a rechainer checkout would shadow the
        # reference install's chainer.
        env.pop('PYTHONPATH', None)
    return env


def spawn(python, workload, framework, args):
    """Runs one child; returns its record, or one with ``error`` when it failed."""
    cmd = [python, os.path.abspath(__file__), '--child', workload, framework,
           '--seconds', str(args.seconds), '--clock', args.clock] + (
               ['--quick'] if args.quick else [])
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, env=_child_env(framework),
                             timeout=900)
    except subprocess.TimeoutExpired:
        return {'error': 'timed out after 900 s'}
    except OSError as e:          # e.g. --reference names no program
        return {'error': f'cannot run {python}: {e}'}
    for line in reversed(out.stdout.splitlines()):
        if line.startswith(RESULT_MARK):
            return json.loads(line[len(RESULT_MARK):])
    tail = (out.stderr.strip().splitlines() or ['no output'])[-1]
    return {'error': f'exit status {out.returncode}: {tail}'}


def probe_frameworks(frameworks, args):
    """The python and version of each framework that is installed; a line for each that is not."""
    pythons, versions = {}, {}
    for fw in frameworks:
        python = args.reference if fw == 'chainer7' else sys.executable
        if python is None:
            print(f'skipping chainer7: no Chainer 7.8.1 install found ({REFERENCE}); '
                  'use --reference PYTHON')
            continue
        probe = spawn(python, 'probe', fw, args)
        if probe.get('available'):
            pythons[fw], versions[fw] = python, probe['version']
        else:
            print(f'skipping {fw}: {probe.get("reason") or probe.get("error")}')
    return pythons, versions


def run_rounds(workloads, pythons, args):
    """Every workload for every framework, round after round; returns the records and
    whether a child failed."""
    results = {w: {fw: [] for fw in pythons} for w in workloads}
    failed = False
    for r in range(args.rounds):
        for w in workloads:
            cells = []
            for fw, python in pythons.items():
                rows = results[w][fw]
                if WORKLOADS[w].builders[fw] is None:
                    rec = {}                        # no NumPy floor for this one
                elif rows and rows[0].get('available') is False:
                    rec = rows[0]                   # said so in round 1: not asked again
                else:
                    rec = spawn(python, w, fw, args)
                    if 'error' in rec:
                        failed = True
                        print(f'  {w} / {fw} failed: {rec["error"]}')
                rows.append(rec)
                if 'time' in rec:
                    cells.append(f'{fw} {rec["time"]:.3f}')
            print(f'round {r + 1}/{args.rounds} {w:17} {WORKLOADS[w].unit:8} ' + '  '.join(cells),
                  flush=True)
    return results, failed


def ratio_summary(ours, theirs):
    """Median, min, max and quartiles of the per-round ratios, or None without pairs."""
    ratios = [a / b for a, b in zip(ours, theirs) if a is not None and b is not None]
    if not ratios:
        return None
    q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
    return {'median': statistics.median(ratios), 'min': min(ratios), 'max': max(ratios),
            'q1': q[0], 'q3': q[2], 'rounds': len(ratios)}


def _fmt_ratio(s):
    if s is None:
        return f'{"-":>20}'
    return f'{s["median"]:5.2f} [{s["min"]:.2f}-{s["max"]:.2f}]'.rjust(20)


def summarize(results, workloads, frameworks):
    """Per workload: median time, peak memory and the ratio summaries against rechainer."""
    summary = {}
    for name in workloads:
        rows = results[name]
        times = {fw: [r.get('time') for r in rows[fw]] for fw in frameworks}
        entry = {'title': WORKLOADS[name].title, 'unit': WORKLOADS[name].unit,
                 'time': {}, 'maxrss_mb': {}, 'ratios': {}, 'not_available': {}}
        for fw in frameworks:
            got = [t for t in times[fw] if t is not None]
            if got:
                entry['time'][fw] = statistics.median(got)
                entry['maxrss_mb'][fw] = max(r['maxrss_mb'] for r in rows[fw] if 'time' in r)
            reasons = [r['reason'] for r in rows[fw] if r.get('available') is False]
            if reasons:
                entry['not_available'][fw] = reasons[0]
        if 'rechainer' in frameworks:
            for fw in frameworks:
                if fw != 'rechainer':
                    entry['ratios'][fw] = ratio_summary(times['rechainer'], times[fw])
        summary[name] = entry
    return summary


def print_summary(summary, frameworks):
    others = [fw for fw in frameworks if fw != 'rechainer']
    head = ''.join(f'{fw:>10}' for fw in frameworks)
    rhead = ''.join(f'{"re/" + fw:>20}' for fw in others) if 'rechainer' in frameworks else ''
    print(f'\n{"workload":17} {"unit":8}{head}  {rhead}')
    for name, e in summary.items():
        cells = ''.join(f'{e["time"][fw]:10.3f}' if fw in e['time']
                        else f'{"n/a" if fw in e["not_available"] else "-":>10}'
                        for fw in frameworks)
        ratios = ''.join(_fmt_ratio(e['ratios'].get(fw)) for fw in others)
        print(f'{name:17} {e["unit"]:8}{cells}  {ratios}')
    print('(ratios: median of the per-round ratios [min-max]; n/a: not available, '
          '-: not run)')
    print(f'\n{"peak memory (MB)":26}' + ''.join(f'{fw:>10}' for fw in frameworks))
    for name, e in summary.items():
        print(f'{name:26}' + ''.join(f'{e["maxrss_mb"][fw]:10.0f}' if fw in e['maxrss_mb']
                                     else f'{"-":>10}' for fw in frameworks))
    notes = {(fw, r) for e in summary.values() for fw, r in e['not_available'].items()}
    for fw, reason in sorted(notes):
        print(f'not available in {fw}: {reason}')


def cross_check(tol=1e-5):
    """One Adam step of the small MLP from the same weights and data in rechainer and PyTorch.

    Returns (ok, message). Chainer adds Adam's eps after the bias correction of
    the second moment, PyTorch before it; PyTorch's eps is scaled so that the
    first step is the same update.
    """
    import chainer
    import chainer.functions as F
    import torch
    rng = np.random.RandomState(1)
    weights = [(rng.normal(0, np.sqrt(1 / a), (b, a)).astype(np.float32),
                rng.normal(0, 0.1, b).astype(np.float32))
               for a, b in zip(SMALL[:-1], SMALL[1:])]
    x, t = mlp_data(SMALL, 32, seed=2)

    model = _chainer_mlp(SMALL)
    for layer, (W, b) in zip(model.layers, weights):
        layer.W.array[...] = W
        layer.b.array[...] = b
    opt = chainer.optimizers.Adam()
    opt.setup(model)
    opt.update(lambda: F.softmax_cross_entropy(model(x), t))
    ours = [a for layer in model.layers for a in (layer.W.array, layer.b.array)]

    net = _torch_mlp(SMALL)
    linears = [m for m in net if isinstance(m, torch.nn.Linear)]
    with torch.no_grad():
        for lin, (W, b) in zip(linears, weights):
            lin.weight.copy_(torch.from_numpy(W))
            lin.bias.copy_(torch.from_numpy(b))
    topt = torch.optim.Adam(net.parameters(), lr=1e-3, betas=(0.9, 0.999),
                            eps=1e-8 / np.sqrt(1 - 0.999))
    _torch_train_step(net, topt, x, t)()
    theirs = [p.detach().numpy() for lin in linears for p in (lin.weight, lin.bias)]

    start = [a for pair in weights for a in pair]
    diff = max(float(np.abs(a - b).max()) for a, b in zip(ours, theirs))
    moved = min(float(np.abs(a - s).max()) for a, s in zip(ours, start))
    ok = diff <= tol and moved > 10 * tol   # a step that changes nothing proves nothing
    return ok, (f'largest parameter difference {diff:.2e} (tolerance {tol:g}), '
                f'smallest largest update {moved:.2e}')


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--rounds', type=int, default=5)
    parser.add_argument('--workloads', default=','.join(WORKLOADS),
                        help='comma-separated subset of: ' + ', '.join(WORKLOADS))
    parser.add_argument('--frameworks', default=','.join(FRAMEWORKS),
                        help='comma-separated subset of: ' + ', '.join(FRAMEWORKS))
    parser.add_argument('--reference', default=REFERENCE if os.path.exists(REFERENCE) else None,
                        help='python of the Chainer 7.8.1 install (default: %(default)s)')
    parser.add_argument('--seconds', type=float, default=0.5,
                        help='steady-state seconds each child measures (default: %(default)s)')
    parser.add_argument('--clock', choices=sorted(CLOCKS), default='wall',
                        help='time steps by the wall clock or by the CPU time of each child '
                             '(steadier on a loaded machine; default: %(default)s)')
    parser.add_argument('--json', metavar='OUT', help='write every record and the summary here')
    parser.add_argument('--quick', action='store_true',
                        help='a few steps per child, no minimum time (checks that it runs)')
    parser.add_argument('--child', nargs=2, metavar=('WORKLOAD', 'FRAMEWORK'),
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        run_child(*args.child, 0 if args.quick else args.seconds, args.quick, args.clock)
        return 0

    workloads = args.workloads.split(',')
    frameworks = args.frameworks.split(',')
    for name, known in (('workload', WORKLOADS), ('framework', FRAMEWORKS)):
        unknown = [w for w in (workloads if name == 'workload' else frameworks) if w not in known]
        if unknown:
            parser.error(f'unknown {name}(s) {", ".join(unknown)}; choose from {", ".join(known)}')
    if args.rounds < 1:
        parser.error(f'--rounds must be at least 1, got {args.rounds}')

    load_before = os.getloadavg()
    pythons, versions = probe_frameworks(frameworks, args)
    frameworks = [fw for fw in frameworks if fw in pythons]
    print('frameworks: ' + ', '.join(f'{fw} {versions[fw]}' for fw in frameworks))
    print(f'{os.cpu_count()} CPUs; children run with ' + ', '.join(f'{v}=1' for v in THREAD_VARS)
          + f'; steps timed by the {args.clock} clock')

    check = None
    if 'rechainer' in frameworks and 'torch' in frameworks:
        # In a child too: ru_maxrss survives exec, so the parent must stay small.
        check = spawn(sys.executable, 'cross-check', 'rechainer', args)
        print('cross-check, one Adam step of the small MLP, rechainer vs PyTorch: '
              f'{"OK" if check.get("ok") else "FAIL"} '
              f'({check.get("message") or check.get("error")})')
    else:
        print('cross-check skipped: it needs rechainer and torch')

    results, failed = run_rounds(workloads, pythons, args)
    load_after = os.getloadavg()

    summary = summarize(results, workloads, frameworks)
    print_summary(summary, frameworks)
    print(f'load average (1, 5, 15 min): before {", ".join(f"{v:.2f}" for v in load_before)}; '
          f'after {", ".join(f"{v:.2f}" for v in load_after)} ({os.cpu_count()} CPUs)')
    if args.json:
        report = {'argv': sys.argv, 'rounds': args.rounds, 'quick': args.quick,
                  'seconds': args.seconds, 'clock': args.clock, 'versions': versions, 'cpus': os.cpu_count(),
                  'load_before': load_before, 'load_after': load_after,
                  'cross_check': check, 'summary': summary, 'records': results}
        tmp = f'{args.json}.tmp{os.getpid()}'
        with open(tmp, 'w') as f:
            json.dump(report, f, indent=1)
        os.replace(tmp, args.json)
    return 1 if failed or (check is not None and not check.get('ok')) else 0


if __name__ == '__main__':
    sys.exit(main())
