#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# coverage/report.sh OUT_DIR
#
# Merge the tracefiles in OUT_DIR (unit, ddm, torture from userspace;
# kernel from the booted kernel, when present) into one HTML report with
# per-suite-kind attribution, and print the summary table.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$1
rc=$top/coverage/lcovrc
# lcov 1.16 under Debian 12's perl warns about itself; keep real errors.
exec 2> >(grep -v "^Subroutine .* redefined at" >&2)

merge() {	# output inputs...
	local dst=$1 args=()
	shift
	for f in "$@"; do
		[ -s "$f" ] && args+=(--add-tracefile "$f")
	done
	[ ${#args[@]} -gt 0 ] || return 1
	lcov --config-file "$rc" --quiet "${args[@]}" --output-file "$dst"
}

merge "$out/userspace.info" "$out"/unit.info "$out"/ddm.info "$out"/torture.info
worlds=(userspace)
if [ -s "$out/kernel.info" ]; then
	worlds+=(kernel)
fi
merge "$out/all.info" "$out/userspace.info" "$out/kernel.info"

kinds=()
for k in unit ddm torture kernel; do
	[ -s "$out/$k.info" ] && kinds+=("$out/$k.info")
done
# --show-details: each file's hit counts per test name (unit, ddm, torture,
# kernel); genhtml has no lcovrc key for it.
genhtml --config-file "$rc" --quiet --title "klist-port: lib/ coverage" \
	--show-details --prefix "$top" --output-directory "$out/html" \
	"${kinds[@]}"
python3 "$top/coverage/summary.py" "$out" "${worlds[@]}" merged:all
echo "HTML report: $out/html/index.html"
