"""Runs the tests again and again, to show they are deterministic (or find those that are not).

Two parts, as issue 31 asks:

* the default test run (what the README's test command runs), ``--full N`` times;
* every test file alone, ``--per-file K`` times;

each run with its own ``PYTHONHASHSEED`` (1, 2, 3, ...). Tests seed their random draws from
their own ids (``tests/conftest.py``), so these runs should all pass. ``--vary-draws`` also
sets ``RECHAINER_TEST_SEED`` to the run's number: every test then draws other inputs, which
finds tests whose checks hold only for some draws (ill-conditioned inputs).

    python tests/tools/repeat_runs.py --full 10 --per-file 3
    python tests/tools/repeat_runs.py --per-file 1 --jobs 2 tests/chainer_tests/links_tests
    python tests/tools/repeat_runs.py --full 3 --vary-draws

Run from the project root with the project's Python. It prints one line per run and a
summary of the failures; the exit status is 1 if any run failed.
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _pytest(args, run, vary_draws, timeout):
    env = dict(os.environ, PYTHONHASHSEED=str(run))
    if vary_draws:
        env['RECHAINER_TEST_SEED'] = str(run)
    start = time.monotonic()
    try:
        proc = subprocess.run([sys.executable, '-m', 'pytest', '-q', '-p', 'no:randomly', *args],
                              cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=timeout)
        out, code = proc.stdout + proc.stderr, proc.returncode
    except subprocess.TimeoutExpired:
        out, code = f'timed out after {timeout} s', -1
    lines = out.strip().splitlines()
    summary = lines[-1] if lines else ''
    failed = [line.split(' - ')[0] for line in lines
              if line.startswith(('FAILED ', 'ERROR '))]
    # Exit status 5: the file holds no test that the default markers select.
    return code in (0, 5), summary, failed, time.monotonic() - start


def test_files(paths):
    """The test files (test_*.py) under ``paths`` (default: tests/)."""
    found = []
    for path in paths or ['tests']:
        path = os.path.join(ROOT, path)
        if os.path.isfile(path):
            found.append(os.path.relpath(path, ROOT))
            continue
        for folder, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith(('.', '__')))
            found += [os.path.relpath(os.path.join(folder, f), ROOT)
                      for f in sorted(files) if f.startswith('test_') and f.endswith('.py')]
    return found


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('paths', nargs='*', help='test files or folders for --per-file '
                   '(default: tests/)')
    p.add_argument('--full', type=int, default=0, metavar='N',
                   help='run the default test run N times')
    p.add_argument('--per-file', type=int, default=0, metavar='K',
                   help='run each test file alone K times')
    p.add_argument('--vary-draws', action='store_true',
                   help='also give each run other random draws (RECHAINER_TEST_SEED)')
    p.add_argument('--jobs', type=int, default=1, help='files run at the same time')
    p.add_argument('--timeout', type=int, default=1800, help='seconds per pytest run')
    args = p.parse_args()
    if not (args.full or args.per_file):
        p.error('nothing to do: give --full N and/or --per-file K')

    failures = []
    for run in range(1, args.full + 1):
        ok, summary, failed, took = _pytest([], run, args.vary_draws, args.timeout)
        print(f'full run {run} (PYTHONHASHSEED={run}): {summary} [{took:.0f} s]', flush=True)
        if not ok:
            failures.append((f'full run {run}', summary, failed))

    files = test_files(args.paths) if args.per_file else []
    jobs = [(f, run) for run in range(1, args.per_file + 1) for f in files]
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = pool.map(lambda job: (job, _pytest([job[0]], job[1], args.vary_draws,
                                                     args.timeout)), jobs)
        for (path, run), (ok, summary, failed, took) in results:
            if not ok:
                print(f'{path} (PYTHONHASHSEED={run}): {summary} [{took:.0f} s]', flush=True)
                failures.append((f'{path} run {run}', summary, failed))
    if jobs:
        print(f'{len(jobs)} file runs ({len(files)} files x {args.per_file}); '
              f'{sum(1 for w, _, _ in failures if " run " in w and w[:4] != "full")} failed')

    for what, summary, failed in failures:
        print(f'FAILED {what}: {summary}')
        for test in failed[:20]:
            print(f'    {test}')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
