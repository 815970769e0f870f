#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Self-test of scan-console.py on synthetic console logs: a clean run
# passes; a missing case, a failed case, a crash before the end and each
# kind of kernel report fail.

set -uo pipefail

scan=$(dirname "$0")/scan-console.py
tmp=$(mktemp -d "${TMPDIR:-/tmp}/scan-selftest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0

cat > "$tmp/suites.json" <<'JSON'
{"demo": {"file": "lib/demo-test.c", "source": "tests/unit/demo-test.c",
	  "cases": ["demo_one", "demo_two"]}}
JSON

good() {
	cat <<'LOG'
[    1.000000] Linux version 6.1.192
[    7.552076] KTAP version 1
[    7.552836] 1..1
[    7.553768]     KTAP version 1
[    7.554508]     # Subtest: demo
[    7.555681]     1..2
[    7.570408]     ok 1 demo_one
[    7.579780]     ok 2 demo_two # SKIP not here
[    7.882459] # Totals: pass:1 fail:0 skip:1 total:2
[    7.883200] ok 1 demo
[    8.214497] reboot: machine restart
LOG
}

expect() {
	local want=$1 name=$2 rc
	python3 "$scan" --log "$tmp/log" --suites "$tmp/suites.json" \
		> "$tmp/out" 2>&1
	rc=$?
	if [ $rc -ne "$want" ]; then
		echo "FAIL: $name: exit $rc, expected $want"
		sed 's/^/    /' "$tmp/out"
		fails=$((fails + 1))
	else
		echo "ok: $name"
	fi
}

good > "$tmp/log"; expect 0 "clean run"
good | sed '/demo_two/d' > "$tmp/log"; expect 1 "missing case"
good | sed 's/    ok 1 demo_one/    not ok 1 demo_one/' > "$tmp/log"
expect 1 "failed case"
good | sed '/demo_one/,$d' > "$tmp/log"; expect 1 "crash mid-suite"
: > "$tmp/log"; expect 1 "no output"
for report in \
	'WARNING: possible circular locking dependency detected' \
	'WARNING: inconsistent lock state' \
	'WARNING: possible recursive locking detected' \
	'BUG: KASAN: slab-use-after-free in klist_next+0x1/0x2' \
	'BUG: KCSAN: data-race in klist_next / klist_del' \
	'BUG: sleeping function called from invalid context at x.c:1' \
	'WARNING: CPU: 1 PID: 9 at lib/klist.c:10 klist_put+0x1/0x2' \
	'INFO: task kkt/2:77 blocked for more than 30 seconds.' \
	'list_add corruption. prev->next should be next' \
	'list_del corruption, ffff8880 ->next is LIST_POISON1' \
	'Kernel panic - not syncing: Fatal exception' \
	'Oops: 0000 [#1] PREEMPT SMP KASAN'; do
	good | sed "/ok 1 demo_one/a [    7.571000] $report" > "$tmp/log"
	expect 1 "report: $report"
done

[ $fails -eq 0 ] && echo "scan-console-selftest: all passed"
exit $((fails != 0))
