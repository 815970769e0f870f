#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Proof of power: for each defect patch in tests/defects/*/, build the
# torture program against a patched copy of lib/ under each tool, run it
# with several seeds, and print the median time until it fails.
#
#   scripts/time-to-detect.sh [-s SEEDS] [-t TIMEOUT_S] [-b BASELINE_S] [-n]
#                             [-T "TOOL..."] [-o OUTDIR] [DEFECT_ID...]
#
# -n leaves out the baseline rows, -T runs only the tools named (to split
# one long run into several).
#
#   scripts/time-to-detect.sh -T explore [-t TIMEOUT_S] [DEFECT_ID...]
#
# hunts every defect (all of tests/defects/) with the explorer instead:
# tests/explore/explore built against the patched lib/, running the
# scenarios mapped to the defect below depth-first with iterative
# context bounding (preemption bounds 0, 1, 2, 3), stopping at the first
# failing schedule.  It prints the scenario and schedule that failed,
# how many schedules ran until then, the median wall time of 3 runs (the
# schedule count is the same every time: the search is deterministic)
# and the report.  The baseline rows run the same scenarios on lib/ as
# it is, where no schedule may fail.
#
#   scripts/time-to-detect.sh -T dpor [-t TIMEOUT_S] [DEFECT_ID...]
#
# the same with source-DPOR (explore -s dpor: no bound) beside the DFS
# with k<=3, from one build and one run each (DPOR's schedule count is
# deterministic too; its wall time is the median of 3).
#
#   scripts/time-to-detect.sh -T wmm [-t TIMEOUT_S] [DEFECT_ID...]
#
# the same with DFS k<=3 under the weak-memory model (explore -m wmm)
# beside DFS k<=3 under sc: a defect only weak memory shows (W1, W2) is
# "not found" in the sc column.
#
# The kernel's own lib/klist.c under the klist scenarios is the
# conformance run's (tests/conformance/, target klist-conformance).
#
# Tools: shim (the shim's own checks), asan (+UBSan), tsan, helgrind;
# fast and fast-tsan: klist-torture on the fast flavour (fast/: no shim,
# no schedule points, no simulated interrupts; its own invariants only,
# then under ThreadSanitizer), klist defects only ("n/a" for ddm).
# Every shim run uses seeded schedule points (SHIM_SCHED_PERMILLE=100).
# A run that survives TIMEOUT_S seconds did not catch the defect.  The
# first row, "none", is lib/ as it is: it must never be "caught" (no
# false reports from any tool).  Without DEFECT_IDs: every klist and ddm
# defect that the torture programs are meant to find (K*, X*, D1-D4; D5
# and the hotplug H* are for their unit tests only).
set -euo pipefail
shopt -s inherit_errexit		# a failed build inside $(...) stops the run
top=$(cd "$(dirname "$0")/.." && pwd)
seeds=5
timeout_s=60
baseline_s=20
baseline=1
out=$top/build/time-to-detect
tools=(shim asan tsan helgrind)
while getopts "s:t:b:nT:o:" opt; do
	case $opt in
	s) seeds=$OPTARG ;;
	t) timeout_s=$OPTARG ;;
	b) baseline_s=$OPTARG ;;
	n) baseline= ;;
	T) read -r -a tools <<< "$OPTARG" ;;
	o) out=$OPTARG ;;
	*) echo "usage: $0 [-s SEEDS] [-t TIMEOUT_S] [-b BASELINE_S] [-n] [-T \"TOOL...\"] [-o OUTDIR] [DEFECT_ID...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
rm -rf "$out"	# never reuse copies of lib/ from an older run
mkdir -p "$out"

declare -A cflags=(
	[shim]="-O1 -g"
	[asan]="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer"
	[tsan]="-O1 -g -fsanitize=thread"
	[helgrind]="-O1 -g -DSHIM_VALGRIND"
	[explore]="-O1 -g"
	[dpor]="-O1 -g"
	[wmm]="-O1 -g"
	[fast]="-O2 -g"
	[fast-tsan]="-O1 -g -fsanitize=thread -Wno-tsan"
)
for tool in "${tools[@]}"; do
	[ -n "${cflags[$tool]:-}" ] || { echo "time-to-detect: unknown tool $tool (shim asan tsan helgrind explore dpor wmm fast fast-tsan)" >&2; exit 2; }
done

# The explorer's scenarios for each defect (tests/explore/*-scenarios.c).
declare -A scenarios=(
	[K1]="klist_walk_from_node_vs_del"
	[K1b]="klist_walk_from_dead_node"
	[K2]="klist_walks_vs_del"
	[K3]="klist_two_removers_vs_walk"
	[K3b]="klist_readd_after_remove"
	[K4]="klist_walk_stop_vs_del"
	[K5]="klist_hooks_walk_vs_del"
	[K6]="klist_walk_fwd_vs_remove klist_walk_back_vs_remove"
	[K9]="klist_walk_fwd_vs_remove klist_walk_back_vs_remove"
	[K7]="klist_walk_in_irq_vs_add_del"
	[K7b]="klist_walk_in_irq_vs_add_del"
	[R1]="klist_walk_fwd_vs_remove klist_walk_back_vs_remove"
	[X1]="klist_add_tail_vs_remove_last klist_add_before_behind_vs_remove"
	[D1]="ddm_drv_unreg_vs_dev_unreg"
	[D2]="ddm_drv_reg_vs_dev_add"
	[D3]="ddm_drv_unreg_vs_dev_unreg"
	[D4]="ddm_drv_reg_vs_dev_add"
	[D5]="ddm_null_bus_walk"
	[D6]="ddm_preset_driver_vs_drv_unreg"
	[D7]="ddm_preset_driver_vs_drv_unreg"
	[H1]="ddm_listener_unsubscribe_queued"
	[H2]="ddm_drv_reg_vs_dev_add_events"
	[D9]="ddm_dev_reg_vs_dev_reg ddm_drv_unreg_vs_drv_unreg"
	[X3]="klist_walk_from_node_vs_its_del"
	[W1]="klist_remove_vs_last_put"
	[W2]="klist_remove_vs_last_put"
)
scenarios_for() {	# patch -> scenario names
	local id
	id=$(basename "$1" .patch)
	case $1 in
	none:klist) echo "${scenarios[K1]} ${scenarios[K1b]} ${scenarios[K2]} ${scenarios[K3]} ${scenarios[K3b]} ${scenarios[K4]} ${scenarios[K5]} ${scenarios[K6]} ${scenarios[K7]} ${scenarios[X1]}" ;;
	none:ddm) echo "${scenarios[D1]} ${scenarios[D2]} ${scenarios[D5]} ${scenarios[D6]} ${scenarios[H1]}" ;;
	*) echo "${scenarios[${id%%-*}]:-}" ;;
	esac
}

# The torture program a defect is hunted with: from its patch's path.
torture_for() {
	case $1 in
	none:ddm) echo tests/torture/ddm-torture.c ;;
	none:*) echo tests/torture/klist-torture.c ;;
	*/ddm/*) echo tests/torture/ddm-torture.c ;;
	*) echo tests/torture/klist-torture.c ;;
	esac
}

build() {	# patch tool -> binary path
	local patch=$1 tool=$2 id src dir
	id=$(basename "$patch" .patch)
	dir=$out/${id//:/-}
	src=$(torture_for "$patch")
	mkdir -p "$dir"
	if [ ! -f "$dir/.patched" ]; then
		rm -rf "${dir:?}/lib"
		cp -r "$top/lib" "$dir/lib"
		case $patch in
		none:*) ;;
		*) patch --quiet --no-backup-if-mismatch -p1 -d "$dir" -i "$patch" ;;
		esac
		touch "$dir/.patched"
	fi
	if [ "$tool" = explore ] || [ "$tool" = dpor ]; then
		# shellcheck disable=SC2086
		gcc -std=gnu11 ${cflags[$tool]} -I"$top/include" -I"$top/shim/include" \
			-o "$dir/explore" "$top"/tests/explore/explore-main.c \
			"$top"/tests/explore/*-scenarios.c "$top"/tests/explore/gen/gen{,-enum,-check,-klist,-ddm}.c "$dir"/lib/*.c \
			"$dir"/lib/ddm/*.c "$top"/shim/src/*.c "$top"/shim/explore/*.c -lpthread \
			|| { echo "time-to-detect: build of $id for $tool failed" >&2; return 1; }
		echo "$dir/explore"
		return
	fi
	case $tool in
	fast*)
		# shellcheck disable=SC2086
		gcc -std=gnu11 ${cflags[$tool]} -DKLIST_PORT_FAST=1 -fno-strict-aliasing \
			-I"$top/fast/testing/include" -I"$top/fast/include" -I"$top/include" \
			-I"$top/fast/src" \
			-o "$dir/torture-$tool" "$top/$src" "$dir"/lib/klist.c \
			"$top"/fast/src/*.c "$top"/fast/testing/src/*.c -lpthread \
			|| { echo "time-to-detect: build of $id for $tool failed" >&2; return 1; }
		echo "$dir/torture-$tool"
		return
		;;
	esac
	# shellcheck disable=SC2086
	gcc -std=gnu11 ${cflags[$tool]} -I"$top/include" -I"$top/shim/include" \
		-o "$dir/torture-$tool" "$top/$src" "$dir"/lib/*.c "$dir"/lib/ddm/*.c \
		"$top"/shim/src/*.c "$top"/shim/explore/*.c \
		-lpthread || { echo "time-to-detect: build of $id for $tool failed" >&2; return 1; }
	echo "$dir/torture-$tool"
}

run_one() {	# binary tool seed seconds -> seconds, or "-" if it survived
	local bin=$1 tool=$2 seed=$3 secs=$4 start end rc=0 hung=3000 log
	local cmd=("$bin" --seed "$seed" --duration-ms $((secs * 1000)))
	# Every tool stops at its first report, so the run time is the time to detect.
	if [ "$tool" = helgrind ]; then
		cmd=(valgrind --tool=helgrind --error-exitcode=99 --exit-on-first-error=yes -q "${cmd[@]}")
		hung=20000	# valgrind serialises threads: long waits are normal
	fi
	log=$(dirname "$bin")/$tool-seed$seed.log
	start=$(date +%s.%N)
	TSAN_OPTIONS=halt_on_error=1 SHIM_HUNG_TASK_MS=$hung SHIM_SCHED_PERMILLE=100 \
		timeout -k 5 $((secs + 30)) "${cmd[@]}" > "$log" 2>&1 || rc=$?
	end=$(date +%s.%N)
	if [ $rc -eq 0 ]; then
		echo "-"
	else
		echo "$end - $start" | bc
	fi
}

median() {	# values... ("-" = not caught) -> median or "not caught"
	local caught
	caught=$(printf '%s\n' "$@" | grep -v '^-$' | sort -g || true)
	local n total=$#
	n=$(printf '%s\n' "$caught" | grep -c . || true)
	if [ "$n" -le $((total / 2)) ]; then
		echo "not caught ($n/$total)"
		return
	fi
	# The median of all runs, the uncaught counting as slowest.
	printf '%.2f s (%d/%d)\n' "$(printf '%s\n' "$caught" | sed -n "$(((total + 1) / 2))p")" "$n" "$total"
}

# The explorer: one row per defect, every defect patch.
explore_time() {	# log -> seconds to the first failure, or "-"
	# The failing scenario's time to its first failure, plus the whole
	# time of the scenarios run before it.
	awk '$1 == "RESULT" { if ($5 > 0) { print (t + $6) / 1000; f = 1; exit } t += $7 } END { if (!f) print "-" }' "$1"
}
explore_rows() {
	local table=$out/table.md p id bin names log walls r wall title pct
	local name strategy first schedule pfirst total
	printf '| defect | scenario | DFS (ICB, k<=3): schedules to 1st failure | DFS wall (median of 3) | PCT d=3: schedules | PCT wall | schedule (minimised) | report |\n|---|---|---|---|---|---|---|---|\n' > "$table"
	for p in none:klist none:ddm "$top"/tests/defects/*/*.patch; do
		id=$(basename "$p" .patch)
		if [ $# -gt 0 ] && [ "${p#none:}" = "$p" ]; then
			printf '%s\n' "$@" | grep -qx "$id" || continue
		fi
		[ -z "$baseline" ] && [ "${p#none:}" != "$p" ] && continue
		names=$(scenarios_for "$p")
		if [ -z "$names" ]; then
			echo "| $id | - | - | - | - | - | no scenario | - |" >> "$table"
			continue
		fi
		bin=$(build "$p" explore) || exit 1
		if [ "${p#none:}" != "$p" ]; then
			# lib/ as it is: every scenario, k<=2, must pass.
			log=$(dirname "$bin")/explore-baseline.log
			# shellcheck disable=SC2086
			"$bin" -q -k 2 -t 5000 $names > "$log" 2>&1 || true
			r=$(awk '$1 == "RESULT" { n += $4; f += $10; c += $9 } END { print n, f, c, NR }' "$log")
			read -r total first schedule name <<< "$r"
			echo "| $id | all $name of its group | $total schedules (k<=2), $first failing; $schedule of $name covered | - | - | - | - | - |" >> "$table"
			echo "$id explore: $r" >&2
			continue
		fi
		walls=()
		for r in 1 2 3; do
			log=$(dirname "$bin")/explore-run$r.log
			# shellcheck disable=SC2086
			timeout -k 5 $((timeout_s * 3 + 30)) "$bin" -q -k 3 -t $((timeout_s * 1000)) \
				$names > "$log" 2>&1 || true
			walls+=("$(explore_time "$log")")
		done
		r=$(awk '$1 == "RESULT" && $5 > 0 { print $2, $3, $5, $11; exit }' "$log")
		title=$(grep -m1 "^REPORT " "$log" | sed 's/^REPORT [^:]*: //; s/|/\\|/g' | cut -c1-100 || true)
		plog=$(dirname "$bin")/explore-pct.log
		# shellcheck disable=SC2086
		timeout -k 5 $((timeout_s * 3 + 30)) "$bin" -q -s pct -d 3 -S 1 -t $((timeout_s * 1000)) \
			$names > "$plog" 2>&1 || true
		pfirst=$(awk '$1 == "RESULT" && $5 > 0 { print $5; exit }' "$plog")
		pct=$(explore_time "$plog")
		if [ -z "$r" ]; then
			echo "| $id | $names | not found | - | ${pfirst:--} | $pct | - | - |" >> "$table"
		else
			read -r name strategy first schedule <<< "$r"
			wall=$(printf '%s\n' "${walls[@]}" | sort -g | sed -n 2p)
			echo "| $id | $name | $first | ${wall} s | ${pfirst:-not found} | $pct s | \`$schedule\` | $title |" >> "$table"
		fi
		echo "$id explore: dfs ${walls[*]} pct $pct" >&2
	done
	cat "$table"
}
# A second search beside sc DFS k<=3 (DPOR, or DFS under wmm): one row
# per defect, every defect patch.  $1: its name in the table, $2: its
# options, $3: its options on lib/ as it is (the baseline rows).
beside_rows() {
	local what=$1 opts=$2 base_opts=$3
	local table=$out/table.md p id bin names log walls r title dfs
	local name first schedule dfirst dwall total
	shift 3
	printf '| defect | scenario | DFS (k<=3): schedules to 1st failure | DFS wall | %s: schedules to 1st failure | %s wall (median of 3) | %s schedule (minimised) | %s report |\n|---|---|---|---|---|---|---|---|\n' \
		"$what" "$what" "$what" "$what" > "$table"
	for p in none:klist none:ddm "$top"/tests/defects/*/*.patch; do
		id=$(basename "$p" .patch)
		if [ $# -gt 0 ] && [ "${p#none:}" = "$p" ]; then
			printf '%s\n' "$@" | grep -qx "$id" || continue
		fi
		[ -z "$baseline" ] && [ "${p#none:}" != "$p" ] && continue
		names=$(scenarios_for "$p")
		if [ -z "$names" ]; then
			echo "| $id | - | - | - | - | - | no scenario | - |" >> "$table"
			continue
		fi
		bin=$(build "$p" explore) || exit 1
		if [ "${p#none:}" != "$p" ]; then
			# lib/ as it is: no schedule may fail.
			log=$(dirname "$bin")/beside-baseline.log
			# shellcheck disable=SC2086
			"$bin" -q $base_opts -a -t $((timeout_s * 1000)) $names > "$log" 2>&1 || true
			r=$(awk '$1 == "RESULT" { n += $4; f += $10; c += $9; t += $7 } END { print n, f, c, NR, t / 1000 }' "$log")
			read -r total first schedule name dwall <<< "$r"
			echo "| $id | all $name of its group | - | - | $total schedules, $first failing; $schedule of $name covered | ${dwall} s in all | - | - |" >> "$table"
			echo "$id $what: $r" >&2
			continue
		fi
		log=$(dirname "$bin")/dfs.log
		# shellcheck disable=SC2086
		timeout -k 5 $((timeout_s * 3 + 30)) "$bin" -q -m sc -k 3 -t $((timeout_s * 1000)) \
			$names > "$log" 2>&1 || true
		dfirst=$(awk '$1 == "RESULT" && $5 > 0 { print $5; exit }' "$log")
		dfs=$(explore_time "$log")
		walls=()
		for r in 1 2 3; do
			log=$(dirname "$bin")/beside-run$r.log
			# shellcheck disable=SC2086
			timeout -k 5 $((timeout_s * 3 + 30)) "$bin" -q $opts -t $((timeout_s * 1000)) \
				$names > "$log" 2>&1 || true
			walls+=("$(explore_time "$log")")
		done
		r=$(awk '$1 == "RESULT" && $5 > 0 { print $2, $5, $11; exit }' "$log")
		title=$(grep -m1 "^REPORT " "$log" | sed 's/^REPORT [^:]*: //; s/|/\\|/g' | cut -c1-100 || true)
		if [ -z "$r" ]; then
			echo "| $id | $names | ${dfirst:-not found} | $dfs s | not found | - | - | - |" >> "$table"
		else
			read -r name first schedule <<< "$r"
			dwall=$(printf '%s\n' "${walls[@]}" | sort -g | sed -n 2p)
			echo "| $id | $name | ${dfirst:-not found} | $dfs s | $first | ${dwall} s | \`$schedule\` | $title |" >> "$table"
		fi
		echo "$id $what: dfs $dfirst ($dfs s) beside ${walls[*]}" >&2
	done
	cat "$table"
}
if [ "${tools[*]}" = explore ]; then
	explore_rows "$@"
	exit 0
fi
if [ "${tools[*]}" = dpor ]; then
	beside_rows DPOR "-s dpor" "-s dpor" "$@"
	exit 0
fi
if [ "${tools[*]}" = wmm ]; then
	beside_rows "wmm DFS (k<=3)" "-m wmm -k 3" "-m wmm -k 2" "$@"
	exit 0
fi

patches=()
for p in none:klist none:ddm; do
	[ -n "$baseline" ] && [ -f "$top/$(torture_for "$p")" ] && patches+=("$p")
done
for p in "$top"/tests/defects/*/*.patch; do
	id=$(basename "$p" .patch)
	if [ $# -gt 0 ]; then
		printf '%s\n' "$@" | grep -qx "$id" || continue
	else
		case $id in K*|X*|D[1-4]-*) ;; *) continue ;; esac
	fi
	[ -f "$top/$(torture_for "$p")" ] || continue
	patches+=("$p")
done

table=$out/table.md
{
	printf '| defect |'
	printf ' %s |' "${tools[@]}"
	printf '\n|---|'
	printf -- '---|%.0s' "${tools[@]}"
	printf '\n'
} > "$table"
for p in "${patches[@]}"; do
	id=$(basename "$p" .patch)
	row="| $id |"
	secs=$timeout_s
	case $p in none:*) secs=$baseline_s ;; esac
	for tool in "${tools[@]}"; do
		if [ "${tool#fast}" != "$tool" ] &&
		   [ "$(torture_for "$p")" != tests/torture/klist-torture.c ]; then
			row="$row n/a |"	# the fast flavour has klist only
			continue
		fi
		bin=$(build "$p" "$tool") || exit 1
		times=()
		for seed in $(seq 1 "$seeds"); do
			times+=("$(run_one "$bin" "$tool" "$seed" "$secs")")
		done
		row="$row $(median "${times[@]}") |"
		echo "$id $tool: ${times[*]}" >&2
	done
	echo "$row" >> "$table"
done
cat "$table"
