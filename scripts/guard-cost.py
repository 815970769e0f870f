#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What the guarded allocator (shim/src/guard.c) costs, as ratios.

Runs, in one go and interleaved (the order of the modes alternates from
one round to the next, so a noisy neighbour hits both sides alike):
  - the wall time of `ctest -L unit` and `ctest -L ddm`,
  - klist-torture and ddm-torture for a fixed duration, as operations
    per second (the SUMMARY line's ops=),
with SHIM_GUARD=0 (the old allocator), =1 (every block guarded, the
default) and, for the torture programs, =sample.  Prints the median over
the rounds of each slowdown against the unguarded run of that round:
time guarded / time unguarded, or ops/s unguarded / ops/s guarded.

  scripts/guard-cost.py BUILD_DIR [--rounds 3] [--duration-ms 5000]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time


def run_ctest(build, label, mode):
    env = dict(os.environ, SHIM_GUARD=mode)
    start = time.monotonic()
    r = subprocess.run(['ctest', '--test-dir', build, '-L', '^%s$' % label],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    took = time.monotonic() - start
    if r.returncode:
        sys.exit('ctest -L %s failed with SHIM_GUARD=%s:\n%s' % (label, mode, r.stdout))
    return took


def run_torture(build, prog, mode, duration_ms, seed):
    env = dict(os.environ, SHIM_GUARD=mode)
    path = os.path.join(build, 'tests', 'torture', prog)
    r = subprocess.run([path, '--duration-ms', str(duration_ms), '--seed', str(seed)],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       text=True)
    m = re.search(r'^SUMMARY: .* ops=(\d+) .*errors=(\d+)', r.stdout, re.M)
    if r.returncode or not m or m.group(2) != '0':
        sys.exit('%s failed with SHIM_GUARD=%s:\n%s' % (prog, mode, r.stdout))
    return int(m.group(1)) * 1000.0 / duration_ms


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('build')
    ap.add_argument('--rounds', type=int, default=3)
    ap.add_argument('--duration-ms', type=int, default=5000)
    ap.add_argument('--seed', type=int, default=1)
    args = ap.parse_args()

    # name -> mode -> [value per round]
    results = {}
    # (name, run, modes, higher is better)
    jobs = [('ctest -L unit (s)', lambda m: run_ctest(args.build, 'unit', m), ['0', '1'],
             False),
            ('ctest -L ddm (s)', lambda m: run_ctest(args.build, 'ddm', m), ['0', '1'], False),
            ('klist-torture (ops/s)',
             lambda m: run_torture(args.build, 'klist-torture', m, args.duration_ms, args.seed),
             ['0', '1', 'sample'], True),
            ('ddm-torture (ops/s)',
             lambda m: run_torture(args.build, 'ddm-torture', m, args.duration_ms, args.seed),
             ['0', '1', 'sample'], True)]
    for rnd in range(args.rounds):
        for name, fn, modes, _ in jobs:
            order = modes if rnd % 2 == 0 else list(reversed(modes))
            for mode in order:
                v = fn(mode)
                results.setdefault(name, {}).setdefault(mode, []).append(v)
                print('round %d  %-22s SHIM_GUARD=%-6s %10.2f' % (rnd + 1, name, mode, v),
                      flush=True)

    print()
    print('| measure | SHIM_GUARD=0 | =1 | slowdown =1 | =sample | slowdown =sample |')
    print('|---|---|---|---|---|---|')
    for name, _, modes, higher_better in jobs:
        r = results[name]
        base = r['0']
        row = ['%.2f' % statistics.median(base)]
        for mode in ['1', 'sample']:
            if mode not in r:
                row += ['-', '-']
                continue
            ratios = [b / v if higher_better else v / b for v, b in zip(r[mode], base)]
            row += ['%.2f' % statistics.median(r[mode]), '%.2fx' % statistics.median(ratios)]
        print('| %s | %s |' % (name, ' | '.join(row)))
    print()
    print('medians of %d interleaved rounds; torture runs %d ms each, --seed %d'
          % (args.rounds, args.duration_ms, args.seed))


if __name__ == '__main__':
    main()
