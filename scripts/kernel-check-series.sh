#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Check that the committed kernel-patches/*.patch equal what
# gen-kernel-patches.py produces from the current sources.  Exits 1 and
# prints the difference when the committed series is stale.
#
#   kernel-check-series.sh PRISTINE [PROJECT]

set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
pristine=${1:?usage: $0 PRISTINE [PROJECT]}
project=$(cd "${2:-$(dirname "$here")}" && pwd)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kernel-check-series.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/committed"
for p in "$project"/kernel-patches/*.patch; do
	[ -e "$p" ] && cp "$p" "$tmp/committed/"
done
python3 "$here/gen-kernel-patches.py" --project "$project" \
	--pristine "$pristine" --out "$tmp/generated"

if (cd "$tmp" && diff -ruN committed generated); then
	echo "kernel-check-series: kernel-patches/ is up to date" \
	     "($(ls "$tmp/generated" | wc -l) patch(es))"
	exit 0
fi
echo "kernel-check-series: kernel-patches/ is STALE (diff above:" \
     "committed -> generated); regenerate with" >&2
echo "  cmake --build <dir> --target kernel-patches" >&2
echo "or" >&2
echo "  scripts/gen-kernel-patches.py --pristine $pristine" >&2
exit 1
