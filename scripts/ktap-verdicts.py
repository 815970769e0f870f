#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# One table of verdicts for both worlds: for every KUnit case shared by
# userspace and the kernel (the suites of tests/unit/*.c, as listed in
# suites.json by scripts/gen-kernel-patches.py --meta), its verdict in
# the userspace KTAP (the runner's --ktap) and in the kernel's (the QEMU
# console log, test.log).  Fails when a shared case is missing from
# either world or its verdicts differ.
#
# Usage: ktap-verdicts.py --suites suites.json --kernel test.log
#                         --userspace FILE [FILE...] [--all] [--markdown]
#   --all       print every shared case, not only the ones that disagree
#   --markdown  the table as Markdown
# Exit status: 0 every shared case present in both with the same verdict,
# 1 otherwise, 2 bad input.

import argparse
import json
import re
import sys

# kernel console: "[    5.182213] " before each line
TIMESTAMP = re.compile(r'^\[\s*\d+\.\d+\] ?')
SUBTEST = re.compile(r'^( *)# Subtest: (\S+)')
RESULT = re.compile(r'^( *)(ok|not ok) \d+ (?:- )?([^#]*?)\s*(#\s*(\S+).*)?$')
SHARED_SOURCE = 'tests/unit/'


def parse_ktap(path):
	"""{(suite, case): 'PASS'|'FAIL'|'SKIP'} for the case-level results."""
	headers = {}
	verdicts = {}
	with open(path, errors='replace') as f:
		for line in f:
			line = TIMESTAMP.sub('', line.rstrip('\n'))
			m = SUBTEST.match(line)
			if m:
				indent = len(m.group(1))
				headers = {i: n for i, n in headers.items() if i < indent}
				headers[indent] = m.group(2)
				continue
			m = RESULT.match(line)
			if not m:
				continue
			indent = len(m.group(1))
			# a case result sits at the suite header's indent (4);
			# suite results at 0 and parameter results at 8 are
			# summed up by it
			if indent != 4 or 4 not in headers:
				continue
			if m.group(2) == 'not ok':
				v = 'FAIL'
			elif (m.group(5) or '').upper() == 'SKIP':
				v = 'SKIP'
			else:
				v = 'PASS'
			verdicts[(headers[4], m.group(3))] = v
	return verdicts


def main():
	ap = argparse.ArgumentParser(description=__doc__)
	ap.add_argument('--suites', required=True)
	ap.add_argument('--kernel', required=True)
	ap.add_argument('--userspace', required=True, nargs='+')
	ap.add_argument('--all', action='store_true')
	ap.add_argument('--markdown', action='store_true')
	args = ap.parse_args()

	try:
		with open(args.suites) as f:
			meta = json.load(f)
		kernel = parse_ktap(args.kernel)
		user = {}
		for p in args.userspace:
			user.update(parse_ktap(p))
	except (OSError, ValueError) as e:
		print('ktap-verdicts: %s' % e, file=sys.stderr)
		return 2

	shared = [(s, c) for s, m in sorted(meta.items())
		  if m.get('source', '').startswith(SHARED_SOURCE)
		  for c in m['cases']]
	if not shared:
		print('ktap-verdicts: no shared suite in %s' % args.suites,
		      file=sys.stderr)
		return 2

	rows = []
	counts = {'same': 0, 'differ': 0, 'no userspace': 0, 'no kernel': 0}
	for s, c in shared:
		u = user.get((s, c), 'MISSING')
		k = kernel.get((s, c), 'MISSING')
		if u == 'MISSING':
			counts['no userspace'] += 1
		if k == 'MISSING':
			counts['no kernel'] += 1
		if u == k:
			counts['same'] += 1
		elif 'MISSING' not in (u, k):
			counts['differ'] += 1
		if args.all or u != k:
			rows.append(('%s.%s' % (s, c), u, k))

	width = max([len('case')] + [len(r[0]) for r in rows])
	if args.markdown:
		print('| case | userspace | kernel |\n|---|---|---|')
		for r in rows:
			print('| %s | %s | %s |' % r)
	elif rows:
		print('%-*s  %-9s  %s' % (width, 'case', 'userspace', 'kernel'))
		for r in rows:
			flag = '' if r[1] == r[2] else '   <-- differs'
			print('%-*s  %-9s  %s%s' % (width, r[0], r[1], r[2], flag))

	by_world = {}
	for world, v in (('userspace', user), ('kernel', kernel)):
		shared_v = [v[x] for x in shared if x in v]
		by_world[world] = ', '.join('%s %d' % (w, shared_v.count(w))
					    for w in ('PASS', 'FAIL', 'SKIP'))
	suites = sorted({s for s, _ in shared})
	print('Shared cases: %d in %d suites (%s); userspace: %s; kernel: %s'
	      % (len(shared), len(suites), ' '.join(suites),
		 by_world['userspace'], by_world['kernel']))
	print('Same verdict: %d; differ: %d; missing in userspace: %d; '
	      'missing in kernel: %d'
	      % (counts['same'], counts['differ'], counts['no userspace'],
		 counts['no kernel']))
	ok = counts['same'] == len(shared) and not counts['no userspace'] \
		and not counts['no kernel']
	print('Verdict table: %s' % ('PASS' if ok else 'FAIL'))
	return 0 if ok else 1


if __name__ == '__main__':
	sys.exit(main())
