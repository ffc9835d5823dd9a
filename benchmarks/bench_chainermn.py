"""chainermn over MPI: allreduce bandwidth, and data-parallel scaling of an MLP.

Two measurements, each run in one go so that their ratios compare like with like:

- allreduce of 1, 10 and 100 MB of float32 between 2 processes, through ``comm.allreduce``
  and ``comm.multi_node_mean_grad`` (a model whose gradients total that size, with the
  ``naive`` and ``flat`` communicators), against mpi4py's own ``Allreduce`` of the same
  buffer as the floor. Bandwidth is bytes / median time.
- an MLP (784-1000-1000-10, MomentumSGD, float32) trained with a fixed global batch of 256
  at 1 process and at 2 processes (128 each): median time per step and the speed-up.

Needs mpi4py and mpich (``pip install 'rechainer[mpi]'``, which puts ``mpiexec`` beside the
interpreter). On a busy machine the figures only say that the script runs.

    python benchmarks/bench_chainermn.py [--repeat 10] [--steps 20] [--sizes 1 10 100]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

import numpy as np

MB = 2 ** 20


def _median_s(fn, repeat, barrier):
    fn()  # warm-up: buffers, first-touch pages
    times = []
    for _ in range(repeat):
        barrier()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _grad_model(n_elems, chunks=8):
    import chainer
    import chainer.links as L
    model = chainer.ChainList()
    per = n_elems // chunks
    with model.init_scope():
        for _ in range(chunks):
            layer = L.Bias(shape=(per,))
            layer.b.grad = np.ones(per, np.float32)
            model.append(layer)
    return model


def worker_allreduce(args):
    import chainermn
    from mpi4py import MPI
    comms = {name: chainermn.create_communicator(name) for name in ('naive', 'flat')}
    world = MPI.COMM_WORLD
    rows = []
    for size_mb in args.sizes:
        n = int(size_mb * MB) // 4
        x = np.ones(n, np.float32)
        out = np.empty_like(x)
        model = _grad_model(n)
        cases = {
            'mpi4py Allreduce (floor)': lambda: world.Allreduce(x, out, op=MPI.SUM),
            'comm.allreduce': lambda: comms['naive'].allreduce(x),
            'multi_node_mean_grad naive': lambda: comms['naive'].multi_node_mean_grad(model),
            'multi_node_mean_grad flat': lambda: comms['flat'].multi_node_mean_grad(model),
        }
        for name, fn in cases.items():
            t = _median_s(fn, args.repeat, world.Barrier)
            t = world.allreduce(t, op=MPI.MAX)  # the slowest rank sets the pace
            rows.append({'size_mb': size_mb, 'case': name, 'ms': t * 1e3,
                         'gb_s': n * 4 / t / 1e9})
    return rows


def worker_scaling(args):
    import chainer
    import chainer.functions as F
    import chainer.links as L
    import chainermn
    from mpi4py import MPI

    class MLP(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = L.Linear(784, 1000)
                self.l2 = L.Linear(1000, 1000)
                self.l3 = L.Linear(1000, 10)

        def forward(self, x):
            return self.l3(F.relu(self.l2(F.relu(self.l1(x)))))

    comm = chainermn.create_communicator('flat')
    local = args.global_batch // comm.size
    rs = np.random.RandomState(comm.rank)
    x = rs.rand(local, 784).astype(np.float32)
    t = rs.randint(0, 10, local).astype(np.int32)
    model = L.Classifier(MLP())
    optimizer = chainermn.create_multi_node_optimizer(chainer.optimizers.MomentumSGD(), comm)
    optimizer.setup(model)
    step = lambda: optimizer.update(model, x, t)  # NOQA
    step()  # the first update broadcasts the parameters
    t_step = _median_s(step, args.steps, comm.mpi_comm.Barrier)
    t_step = comm.mpi_comm.allreduce(t_step, op=MPI.MAX)
    return [{'processes': comm.size, 'local_batch': local, 'ms_per_step': t_step * 1e3}]


def _launch(n, what, args):
    mpiexec = shutil.which('mpiexec', path=os.path.dirname(sys.executable)) or \
        shutil.which('mpiexec')
    if mpiexec is None:
        sys.exit('no mpiexec: pip install mpi4py mpich')
    cmd = [mpiexec, '-n', str(n), sys.executable, os.path.abspath(__file__), '--worker', what,
           '--repeat', str(args.repeat), '--steps', str(args.steps),
           '--global-batch', str(args.global_batch), '--sizes', *map(str, args.sizes)]
    env = dict(os.environ, OMP_NUM_THREADS=os.environ.get('OMP_NUM_THREADS', '1'))
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=10, help='timed allreduces per case')
    parser.add_argument('--steps', type=int, default=20, help='timed training steps')
    parser.add_argument('--global-batch', type=int, default=256)
    parser.add_argument('--sizes', type=float, nargs='+', default=[1, 10, 100],
                        help='allreduce sizes in MB')
    parser.add_argument('--worker', choices=['allreduce', 'scaling'], help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.worker:
        rows = (worker_allreduce if args.worker == 'allreduce' else worker_scaling)(args)
        from mpi4py import MPI
        if MPI.COMM_WORLD.rank == 0:
            print(json.dumps(rows))
        return

    print(f'allreduce between 2 processes (median of {args.repeat}; OMP_NUM_THREADS=1)')
    print(f'{"MB":>6}  {"case":<28} {"ms":>9} {"GB/s":>7} {"x floor":>8}')
    rows = _launch(2, 'allreduce', args)
    floors = {r['size_mb']: r['ms'] for r in rows if 'floor' in r['case']}
    for r in rows:
        print(f'{r["size_mb"]:>6g}  {r["case"]:<28} {r["ms"]:>9.2f} {r["gb_s"]:>7.2f} '
              f'{r["ms"] / floors[r["size_mb"]]:>8.2f}')

    print(f'\nMLP 784-1000-1000-10, MomentumSGD, global batch {args.global_batch} '
          f'(median of {args.steps} steps)')
    results = [_launch(n, 'scaling', args)[0] for n in (1, 2)]
    for r in results:
        print(f'{r["processes"]} process(es), local batch {r["local_batch"]:>4}: '
              f'{r["ms_per_step"]:8.2f} ms/step')
    print(f'speed-up at 2 processes: {results[0]["ms_per_step"] / results[1]["ms_per_step"]:.2f}x')


if __name__ == '__main__':
    main()
