#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ktap-verdicts.py on synthetic logs (no kernel needed): the table passes
# only when every shared case is in both worlds with the same verdict.
set -euo pipefail

tool=$(dirname "$0")/../../scripts/ktap-verdicts.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/suites.json" <<'JSON'
{"s": {"file": "lib/s-test.c", "source": "tests/unit/s-test.c",
       "cases": ["a", "b", "c"]},
 "k": {"file": "lib/k-test.c", "source": "tests/qemu/k-test.c",
       "cases": ["x"]}}
JSON
# userspace: the runner's KTAP, one parameterised case
cat > "$tmp/user.ktap" <<'KTAP'
KTAP version 1
1..1
    KTAP version 1
    # Subtest: s
    1..3
    ok 1 a
        KTAP version 1
        # Subtest: b
        ok 1 p0
        not ok 2 p1
    not ok 2 b
    ok 3 c # SKIP no hardware
not ok 1 s
KTAP
# kernel: console lines with timestamps, the kernel-only suite first
kernel() {
	cat <<LOG
[    5.1] KTAP version 1
[    5.1] 1..2
[    5.2]     KTAP version 1
[    5.2]     # Subtest: k
[    5.2]     1..1
[    5.3]     ok 1 x
[    5.3] ok 1 k
[    5.4]     KTAP version 1
[    5.4]     # Subtest: s
[    5.4]     1..3
[    5.5]     ok 1 a
[    5.6]     $1
[    5.7]     $2
[    5.8] not ok 2 s
LOG
}

expect() {
	local want=$1 what=$2 rc=0
	shift 2
	python3 "$tool" --suites "$tmp/suites.json" --kernel "$tmp/kernel.log" \
		--userspace "$tmp/user.ktap" --all > "$tmp/out" 2>&1 || rc=$?
	if [ "$rc" != "$want" ]; then
		echo "FAIL: $what: exit $rc, expected $want"
		cat "$tmp/out"
		exit 1
	fi
	echo "ok: $what"
}

kernel "not ok 2 b" "ok 3 c # SKIP no hardware" > "$tmp/kernel.log"
expect 0 "same verdicts (pass, fail, skip) in both worlds"
kernel "ok 2 b" "ok 3 c # SKIP no hardware" > "$tmp/kernel.log"
expect 1 "a verdict that differs"
kernel "not ok 2 b" "" > "$tmp/kernel.log"
expect 1 "a case missing from the kernel"
kernel "not ok 2 b" "ok 3 c" > "$tmp/kernel.log"
expect 1 "a skip against a pass"
grep -q 'Same verdict: 2; differ: 1' "$tmp/out" || { cat "$tmp/out"; exit 1; }
