#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ktap-parse-check.sh EXE KTAP KUNIT_TOOL_DIR CASE_DIR
#	Collect the KTAP of every case of the KUnit test executable EXE
#	into one document, KTAP (ktap-collect.py: what its ctest cases left
#	in CASE_DIR, running only the cases that have none), read it back
#	with the kernel's own parser (KUNIT_TOOL_DIR/kunit.py parse, JSON
#	kept in KTAP.json) and check that the KTAP has one result per case
#	that EXE --list names (as ctest has one test per case), that the
#	parser counts every result (a parameterised case counts one per
#	parameter, as kunit.py counts them) and the verdict of the cases.
#	With CASE_DIR "-", EXE runs every case itself (--ktap): the
#	runner's own document, several suites in one.  Exit 77 (ctest:
#	skipped) when kunit.py is not there.
set -uo pipefail

exe=$1
ktap=$2
tool=$3
case_dir=$4
name=$(basename "$exe")

cases=$("$exe" --list | wc -l)
if [ "$case_dir" = - ]; then
	"$exe" --ktap --ktap-file="$ktap" > /dev/null 2> "$ktap.log"
else
	python3 "$(dirname "$0")/ktap-collect.py" "$exe" "$case_dir" "$ktap" 2> "$ktap.log"
fi
rc=$?
# The KTAP is kept for the verdict table even without the parser.
if [ ! -f "$tool/kunit.py" ]; then
	echo "ktap-parse-check: no $tool/kunit.py (runner exit $rc)" >&2
	[ "$rc" = 0 ] && exit 77
	exit 1
fi
python3 "$tool/kunit.py" parse --json="$ktap.json" "$ktap" > "$ktap.parse" 2>&1
parse_rc=$?
summary=$(grep -o 'Ran [0-9]* tests.*' "$ktap.parse" | tail -1)

count() {
	echo "$summary" | grep -o "$1: [0-9]*" | grep -o '[0-9]*$' || echo 0
}
ran=$(echo "$summary" | sed -n 's/^Ran \([0-9]*\) tests.*/\1/p')
passed=$(count passed)
failed=$(count failed)
crashed=$(count crashed)
skipped=$(count skipped)
errors=$(count errors)
echo "$name: $cases cases listed; runner exit $rc; kunit.py parse: ran ${ran:-?}," \
     "passed $passed, failed $failed, crashed $crashed, skipped $skipped," \
     "errors $errors (exit $parse_rc)"

# Case results sit at 4 spaces, parameter results at 8.
case_lines=$(grep -cE '^    (not )?ok [0-9]+ ' "$ktap")
param_lines=$(grep -cE '^        (not )?ok [0-9]+ ' "$ktap")
param_cases=$(grep -cE '^        # Subtest: ' "$ktap")
leaves=$((case_lines - param_cases + param_lines))

bad=0
if [ "$case_lines" != "$cases" ]; then
	echo "ktap-parse-check: the KTAP has $case_lines case results, --list names $cases" >&2
	bad=1
fi
if [ "${ran:-0}" != "$leaves" ]; then
	echo "ktap-parse-check: kunit.py counted ${ran:-no} tests, the KTAP has $leaves results" >&2
	bad=1
fi
if [ "$errors" != 0 ] || [ "$crashed" != 0 ]; then
	echo "ktap-parse-check: kunit.py found parse errors or crashes: see $ktap.parse" >&2
	bad=1
fi
# Both must agree whether the run failed: runner exit 1 <=> failures.
if { [ "$rc" = 1 ] && [ "$failed" = 0 ]; } ||
   { [ "$rc" != 1 ] && [ "$failed" != 0 ]; } ||
   { [ "$rc" = 0 ] && [ "$parse_rc" != 0 ]; }; then
	echo "ktap-parse-check: runner exit $rc disagrees with kunit.py ($failed failed, exit $parse_rc)" >&2
	bad=1
fi
[ "$bad" = 0 ] || exit 1
[ "$rc" = 0 ] || [ "$rc" = 77 ] || { tail -n 40 "$ktap.parse"; exit 1; }
exit "$rc"
