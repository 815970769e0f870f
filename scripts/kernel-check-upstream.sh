#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The patches meant for the kernel itself, kernel-patches/upstream/*.patch
# (not the project's series): each must apply to the pristine tree with
# git apply, and pass the tree's checkpatch.pl --strict with no error,
# warning or check.  That the fix is right is the conformance run's job
# (ctest conformance.klist).
#
#   kernel-check-upstream.sh PRISTINE [PROJECT]

set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
pristine=$(cd "${1:?usage: $0 PRISTINE [PROJECT]}" && pwd)
project=$(cd "${2:-$(dirname "$here")}" && pwd)

shopt -s nullglob
patches=("$project"/kernel-patches/upstream/*.patch)
if [ ${#patches[@]} -eq 0 ]; then
	echo "kernel-check-upstream: no patches"
	exit 1
fi
for p in "${patches[@]}"; do
	name=$(basename "$p")
	(cd "$pristine" && git apply --check --unsafe-paths --directory=. "$p") || {
		echo "kernel-check-upstream: $name does not apply to $pristine"
		exit 1
	}
	out=$(cd "$pristine" && perl scripts/checkpatch.pl --strict --no-tree \
		--color=never --show-types "$p" 2>&1) || true
	echo "$out" | tail -3
	if ! echo "$out" | grep -q "^total: 0 errors, 0 warnings, 0 checks"; then
		echo "$out"
		echo "kernel-check-upstream: $name is not checkpatch --strict clean"
		exit 1
	fi
	echo "kernel-check-upstream: $name applies and is clean"
done
