#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Scan the console log of a KUnit run under QEMU (kunit.py leaves it in
# <build_dir>/test.log) and fail on
#  - an expected suite or case (suites.json written by
#    scripts/gen-kernel-patches.py --meta) that has no KTAP result, or
#    whose result is "not ok";
#  - any "not ok" result at all, and a missing KTAP plan;
#  - any kernel report in the log: lockdep, KASAN, KCSAN, sleeping in
#    atomic context, WARNING, BUG, hung task, list corruption, panic, oops.
#
# Usage: scan-console.py --log FILE --suites suites.json
# Exit status 0 when clean, 1 otherwise; the offending lines are printed.

import argparse
import json
import re
import sys

# (pattern, what) -- any match fails the run
REPORTS = [
	(r'possible circular locking', 'lockdep'),
	(r'inconsistent lock state', 'lockdep'),
	(r'possible recursive locking', 'lockdep'),
	(r'possible irq lock inversion', 'lockdep'),
	(r'suspicious RCU usage', 'lockdep (RCU)'),
	(r'BUG: KASAN', 'KASAN'),
	(r'BUG: KCSAN', 'KCSAN'),
	(r'sleeping function called from invalid context', 'atomic sleep'),
	(r'WARNING:', 'WARNING'),
	(r'BUG:', 'BUG'),
	(r'kernel BUG at', 'BUG'),
	(r'INFO: task .* blocked for more than', 'hung task'),
	(r'list_add corruption', 'list corruption'),
	(r'list_del corruption', 'list corruption'),
	(r'Kernel panic', 'panic'),
	(r'Oops', 'oops'),
	(r'general protection fault', 'oops'),
	(r'UBSAN:', 'UBSAN'),
]

# printed, but not fatal: TCG timing can cause these on a loaded host
NOTES = [
	(r'rcu: INFO: .* detected stalls', 'RCU stall'),
	(r'soft lockup', 'soft lockup'),
]

TS = re.compile(r'^\[\s*\d+\.\d+\]\s?')
RESULT = re.compile(r'^( *)(ok|not ok) (\d+)(?: -)? ?([^#]*?)\s*(?:#\s*(.*))?$')
SUBTEST = re.compile(r'^( *)# Subtest: (\S+)')
PLAN = re.compile(r'^( *)1\.\.(\d+)')


def parse_ktap(lines):
	"""Return {suite: {'status', 'cases': {case: (status, directive)}}}."""
	suites = {}
	current = None
	top_plan = None
	for line in lines:
		m = SUBTEST.match(line)
		if m and len(m.group(1)) == 4:
			current = m.group(2)
			suites.setdefault(current, {'status': None, 'cases': {}})
			continue
		m = PLAN.match(line)
		if m and len(m.group(1)) == 0 and top_plan is None:
			top_plan = int(m.group(2))
			continue
		m = RESULT.match(line)
		if not m:
			continue
		depth = len(m.group(1))
		status, name, directive = m.group(2), m.group(4).strip(), m.group(5)
		if depth == 0:
			suites.setdefault(name, {'status': None, 'cases': {}})
			suites[name]['status'] = (status, directive)
			current = None
		elif depth == 4 and current:
			suites[current]['cases'][name] = (status, directive)
	return suites, top_plan


def main():
	ap = argparse.ArgumentParser()
	ap.add_argument('--log', required=True)
	ap.add_argument('--suites', required=True)
	ap.add_argument('--context', type=int, default=30,
			help='lines shown after the first report')
	args = ap.parse_args()

	with open(args.log, encoding='utf-8', errors='backslashreplace') as f:
		raw = f.read().splitlines()
	with open(args.suites, encoding='utf-8') as f:
		expected = json.load(f)
	lines = [TS.sub('', l) for l in raw]
	failed = False

	# --- kernel reports -------------------------------------------------
	hits = []
	for i, line in enumerate(lines):
		for pat, what in REPORTS:
			if re.search(pat, line):
				hits.append((i, what))
				break
	if hits:
		failed = True
		print('scan-console: %d report line(s) in %s:' % (len(hits), args.log))
		for i, what in hits:
			print('  %s:%d: [%s] %s' % (args.log, i + 1, what, raw[i]))
		first = hits[0][0]
		print('scan-console: log from the first report:')
		for l in raw[first:first + args.context]:
			print('  | ' + l)
	for i, line in enumerate(lines):
		for pat, what in NOTES:
			if re.search(pat, line):
				print('scan-console: note: %s:%d: [%s] %s' %
				      (args.log, i + 1, what, raw[i]))

	# --- KTAP results -----------------------------------------------------
	suites, top_plan = parse_ktap(lines)
	if top_plan is None:
		failed = True
		print('scan-console: no KTAP plan in %s: did the kernel boot '
		      'and run KUnit?' % args.log)
	passed = skipped = 0
	for sname in sorted(expected):
		want = expected[sname]['cases']
		got = suites.get(sname)
		if not got:
			failed = True
			print('scan-console: MISSING suite %s (%s)' %
			      (sname, expected[sname]['file']))
			continue
		for case in want:
			res = got['cases'].get(case)
			if res is None:
				failed = True
				print('scan-console: MISSING %s.%s' % (sname, case))
			elif res[0] != 'ok':
				failed = True
				print('scan-console: FAILED %s.%s' % (sname, case))
			elif res[1] and res[1].upper().startswith('SKIP'):
				skipped += 1
				print('scan-console: skipped %s.%s # %s' %
				      (sname, case, res[1]))
			else:
				passed += 1
		for case in got['cases']:
			if case not in want:
				print('scan-console: note: %s.%s ran but is not in '
				      'the source' % (sname, case))
		if got['status'] is None:
			failed = True
			print('scan-console: MISSING result line of suite %s' % sname)
	for sname, got in sorted(suites.items()):
		bad = [c for c, r in got['cases'].items() if r[0] != 'ok']
		if got['status'] and got['status'][0] != 'ok':
			bad.append('(suite result)')
		if bad:
			failed = True
			print('scan-console: not ok in suite %s: %s' %
			      (sname, ' '.join(bad)))

	total = sum(len(v['cases']) for v in expected.values())
	print('scan-console: %d suite(s), %d/%d case(s) passed, %d skipped, '
	      '%d report line(s): %s' %
	      (len(expected), passed, total, skipped, len(hits),
	       'FAIL' if failed else 'PASS'))
	return 1 if failed else 0


if __name__ == '__main__':
	sys.exit(main())
