#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the pristine tree's scripts/checkpatch.pl over kernel-patches/*.patch.
# Fails on any checkpatch ERROR but two known false positives; warnings
# are printed (the accepted ones are listed in kernel-patches/README).
#
# The first false positive: checkpatch takes any "<name>for_each<name>(" line
# for a loop macro, so the definition of a function named like that, e.g.
# ddm_bus_for_each_dev(), gets "OPEN_BRACE: that open brace { should be
# on the previous line".  6.1's own drivers/base/bus.c gets the same
# error for bus_for_each_dev().  Such an error is accepted only when the
# flagged line starts in column 0 (a definition: a loop is always
# indented inside a function body).
#
# The second: "LOCKDEP: lockdep_no_validate class is reserved for
# device->mutex", which checkpatch decides by path (drivers/base/core.c
# alone).  ddm's device lock is a device->mutex in that sense and follows
# device_initialize() (lesson D8).  Accepted only for the one line
# lockdep_set_novalidate_class(&dev->mutex) in lib/ddm/bus.c.
#
#   kernel-checkpatch.sh PRISTINE [PROJECT]

set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
pristine=$(cd "${1:?usage: $0 PRISTINE [PROJECT]}" && pwd)
project=$(cd "${2:-$(dirname "$here")}" && pwd)

shopt -s nullglob
patches=("$project"/kernel-patches/*.patch)
if [ ${#patches[@]} -eq 0 ]; then
	echo "kernel-checkpatch: no patches"
	exit 0
fi
set +e
out=$(cd "$pristine" && perl scripts/checkpatch.pl --root="$pristine" \
	--color=never --show-types "${patches[@]}" 2>&1)
set -e
echo "$out"

echo "$out" | python3 -c '
import re, sys

lines = sys.stdin.read().split("\n")
errors, accepted, warnings = [], [], []
for i, l in enumerate(lines):
	m = re.match(r"^(ERROR|WARNING|CHECK):(\w+):", l)
	if not m:
		continue
	where = lines[i + 1] if i + 1 < len(lines) else ""
	src = lines[i + 2] if i + 2 < len(lines) else ""
	if m.group(1) == "WARNING":
		warnings.append("%s %s" % (where, l))
	elif m.group(1) == "ERROR":
		if (m.group(2) == "OPEN_BRACE" and
		    re.match(r"^\+[A-Za-z].*\b[a-z_]*for_each[a-z_]+\s*\(", src)):
			accepted.append("(for_each function definition) %s %s" % (where, src))
		elif (m.group(2) == "LOCKDEP" and
		      re.match(r"^#\d+: FILE: lib/ddm/bus\.c:", where) and
		      src.strip() == "+\tlockdep_set_novalidate_class(&dev->mutex);".strip()):
			accepted.append("(the device lock, D8) %s %s" % (where, src))
		else:
			errors.append("%s %s" % (where, l))
print("kernel-checkpatch: %d error(s), %d accepted false positive(s), "
      "%d warning(s)" % (len(errors), len(accepted), len(warnings)))
for a in accepted:
	print("  accepted " + a)
for e in errors:
	print("  ERROR " + e)
sys.exit(1 if errors else 0)
'
