#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# litmus-list-check.sh TREE LIST: every .litmus file of TREE's two litmus
# directories that carries a Result: line is in LIST, and nothing else.
set -eu
tree=$1
list=$2
[ -d "$tree/tools/memory-model/litmus-tests" ] || {
	echo "litmus-list-check: $tree has no litmus tests (not unpacked?)" >&2
	exit 2
}
have=$(cd "$tree" && grep -rl "Result:" --include=*.litmus \
	tools/memory-model/litmus-tests Documentation/litmus-tests | LC_ALL=C sort)
want=$(grep -v '^#' "$list" | LC_ALL=C sort)
if [ "$have" != "$want" ]; then
	echo "litmus-list-check: the list and the tree differ:" >&2
	printf '%s\n' "$have" > /tmp/litmus-have.$$
	printf '%s\n' "$want" | diff - /tmp/litmus-have.$$ >&2 || true
	rm -f /tmp/litmus-have.$$
	exit 1
fi
echo "litmus-list-check: $(printf '%s\n' "$have" | wc -l) tests, as listed"
