#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# ktap-collect.py EXE CASE_DIR OUT
#	One KTAP document for the KUnit test executable EXE, made of the
#	KTAP its ctest cases left in CASE_DIR/SUITE.CASE.ktap (each the
#	runner's own output for that case).  A case whose file is missing
#	or older than EXE is run now, so the document always covers every
#	case EXE --list names at EXE's current build, without running
#	the cases ctest just ran a second time.  Cases keep --list's order;
#	results are renumbered and the suite lines recounted as 6.1's KUnit
#	prints them.  Exit 1 if a case failed, 0 otherwise.

import os
import re
import subprocess
import sys

TOTALS = re.compile(r'^# Totals: pass:(\d+) fail:(\d+) skip:(\d+) total:\d+$')


def case_ktap(exe, path, suite, case):
	"""(body lines, status, directive, leaf counts) of one case."""
	if not os.path.exists(path) or \
	   os.path.getmtime(path) < os.path.getmtime(exe):
		subprocess.run([exe, '--ktap', '--ktap-file=' + path,
				'%s.%s' % (suite, case)],
			       stdout=subprocess.DEVNULL, check=False)
	try:
		with open(path, errors='replace') as f:
			lines = f.read().splitlines()
	except OSError:
		lines = []
	result = re.compile(r'^    (ok|not ok) 1 %s( # SKIP.*)?$' % re.escape(case))
	res = [i for i, l in enumerate(lines) if result.match(l)]
	if '    1..1' not in lines or not res:
		return (['    # %s: no KTAP result in %s' % (case, path)],
			'not ok', '', [0, 1, 0])
	start = lines.index('    1..1') + 1
	m = result.match(lines[res[-1]])
	status, directive = m.group(1), m.group(2) or ''
	leaves = None
	for l in lines[res[-1]:]:
		t = TOTALS.match(l)
		if t:
			leaves = [int(x) for x in t.groups()]
	if leaves is None:	# one result: no count lines
		leaves = [int(status == 'ok' and not directive),
			  int(status == 'not ok'), int(bool(directive))]
	return lines[start:res[-1]], status, directive, leaves


def main():
	exe, case_dir, out = sys.argv[1:4]
	os.makedirs(case_dir, exist_ok=True)
	listing = subprocess.run([exe, '--list'], capture_output=True,
				 text=True, check=True).stdout.split()
	suites = {}
	for name in listing:
		suite, case = name.split('.', 1)
		suites.setdefault(suite, []).append(case)

	doc = ['KTAP version 1', '1..%d' % len(suites)]
	failed = False
	for sn, (suite, cases) in enumerate(suites.items(), 1):
		doc += ['    KTAP version 1', '    # Subtest: %s' % suite,
			'    1..%d' % len(cases)]
		counts = [0, 0, 0]
		leaves = [0, 0, 0]
		for n, case in enumerate(cases, 1):
			body, status, directive, lv = case_ktap(
				exe, os.path.join(case_dir, '%s.%s.ktap' % (suite, case)),
				suite, case)
			doc += body
			doc.append('    %s %d %s%s' % (status, n, case, directive))
			counts[0 if status == 'ok' and not directive else
			       1 if status == 'not ok' else 2] += 1
			leaves = [a + b for a, b in zip(leaves, lv)]
		for name, c in ((suite, counts), ('Totals', leaves)):
			if sum(c) > 1:
				doc.append('# %s: pass:%d fail:%d skip:%d total:%d'
					   % (name, c[0], c[1], c[2], sum(c)))
		if counts[1]:
			doc.append('not ok %d %s' % (sn, suite))
			failed = True
		elif counts[0]:
			doc.append('ok %d %s' % (sn, suite))
		else:
			doc.append('ok %d %s # SKIP ' % (sn, suite))
	with open(out, 'w') as f:
		f.write('\n'.join(doc) + '\n')
	return 1 if failed else 0


if __name__ == '__main__':
	sys.exit(main())
