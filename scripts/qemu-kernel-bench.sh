#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# qemu-kernel-bench: per-step cost of our klist and of Linux 6.1's own,
# in one booted kernel.  Builds a lean 6.1 kernel (tests/qemu/
# kunitconfig.bench: no KASAN, no lockdep, no DEBUG_* options) carrying
# the project's series, as qemu-check generates it, and one more patch:
# the KUnit benchmark suite klist_bench (tests/qemu/klist-bench*) and,
# beside our lib/klist.c, 6.1's lib/klist.c and include/linux/klist.h,
# extracted from the pristine tree at build time (never committed) and
# compiled with their 13 exported functions renamed kernel_klist_*().
# Boots it under QEMU (kunit.py, x86_64, -smp 2) and turns the suite's
# lines into a table: per list size, ns per klist_next() step of each
# klist (median [q1..q3] of the interleaved rounds) and the paired ratio
# ours/6.1.  Not part of qemu-check, not in ctest.  See tests/qemu/BENCH.md.
#
# The one build difference from qemu-check's tree besides the config:
# both klists' objects (our lib/klist.o included) and both walks are
# compiled with -falign-functions=512, because under TCG a hot function
# straddling a 4 KiB page is dearer (it moved the ratio by 20% here);
# the table lists any hot function that still straddles one.
#
# Here QEMU runs without KVM (TCG): the CPU is emulated, so the ns are
# emulator time, not a real machine's; only the ratio counts.
#
#   qemu-kernel-bench.sh [--project DIR] [--work DIR] [--tarball FILE]
#                        [--jobs N] [--rounds R] [--steps S]
#                        [--boots B] [--timeout SECONDS] [--aa-control]
#
#   --boots    boot the built kernel B times (default 3: kunit.py run,
#              then kunit.py exec); the table pools the rounds of every
#              boot and gives the range of the boots' own median ratios,
#              since under TCG the ratio moves more from boot to boot
#              than from round to round
#   --aa-control  an A/A control of the harness: the second klist is not
#              6.1's but a copy of ours, built exactly as 6.1's is
#              (renamed, in the bench's object, the header forced in) and
#              named ours-copy; the ratio should be 1 within the spread
#   --rounds   counted rounds per size (klist_bench.rounds, default 21)
#   --steps    klist_next() steps per timed burst (klist_bench.steps,
#              default 262144)
#
# The tree is WORK/src-bench/linux-source-6.1, unpacked once and kept
# equal to the pristine tree plus WORK/series-bench by kernel-tree.sh
# sync (so a change to the suite or to lib/klist.c rebuilds little);
# the build is WORK/build-bench.  Results: WORK/build-bench/bench.txt and
# bench.json (the last run), and a copy of each, with the console log,
# under WORK/build-bench/runs/.

set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/kernel-script.sh
. "$here/kernel-script.sh"
kernel_script_init qemu-kernel-bench "$(dirname "$here")" 1800
rounds=21
steps=262144
aa=
boots=3
# shellcheck disable=SC2317 # called from kernel_parse_args
kernel_own_arg() {
	kernel_value_arg --rounds rounds "$@"
	kernel_value_arg --steps steps "$@"
	kernel_value_arg --boots boots "$@"
	kernel_flag_arg --aa-control aa "$@"
}
kernel_parse_args "$@"
kernel_work_lock
src=$work/src-bench/linux-source-6.1
build=$work/build-bench
series=$work/series-bench

step "unpacking (cached)"
"$here/kernel-tree.sh" unpack "$tarball" "$work/pristine"
"$here/kernel-tree.sh" unpack "$tarball" "$work/src-bench"
pristine=$work/pristine/linux-source-6.1

# The series: the project's, as qemu-check generates it, then the bench.
step "generating the series into $series"
rm -rf "$series.new"
python3 "$here/gen-kernel-patches.py" --project "$project" \
	--pristine "$pristine" --out "$series.new"
applied=$(mktemp -d "${TMPDIR:-/tmp}/kernel-bench.XXXXXX")
trap 'rm -rf "$applied"' EXIT
"$here/kernel-tree.sh" apply "$series.new" "$pristine" "$applied/tree"
PYTHONPATH="$here" python3 - "$pristine" "$applied/tree" "$project" \
	"$series.new/9001-klist-bench.patch" "$aa" <<'PY'
import os, re, sys
from series_diff import diff
pristine, applied, project, out, aa = sys.argv[1:6]
suite_dir = project + "/tests/qemu"

def read(path):
    with open(path) as f:
        return f.read()

# 6.1's klist, from the pristine tree, under other names: every function
# it exports must be one tests/bench/klist-rename.h renames (included by
# klist-bench-rename.h).  The A/A control takes ours instead.
second = project if aa else pristine
klist_c = read(second + "/lib/klist.c")
klist_h = read(second + "/include/linux/klist.h")
exported = set(re.findall(r"^EXPORT_SYMBOL(?:_GPL)?\((\w+)\);", klist_c, re.M))
rename_h = read(project + "/tests/bench/klist-rename.h")
renamed = set(re.findall(r"^#define\s+(klist_\w+)\s+KLIST_BENCH_RENAMED\(",
                         rename_h, re.M))
if exported != renamed:
    sys.exit("qemu-kernel-bench: 6.1's klist.c exports %s, the rename "
             "header renames %s" % (sorted(exported), sorted(renamed)))

files = {"lib/klist-bench-61-klist.c": klist_c,
         "lib/klist-bench-61-klist.h": klist_h,
         "lib/klist-rename.h": rename_h}
for name in sorted(os.listdir(suite_dir)):
    if re.match(r"klist-bench.*\.[ch]$", name):
        files["lib/" + name] = read(suite_dir + "/" + name)

makefile = read(applied + "/lib/Makefile")
makefile_new = makefile + (
    "\n# qemu-kernel-bench: our klist and 6.1's, one kernel\n"
    "obj-$(CONFIG_KUNIT) += klist-bench.o\n"
    "klist-bench-y := klist-bench-test.o klist-bench-ours.o "
    "klist-bench-61.o klist-bench-61-klist.o\n"
    "CFLAGS_klist-bench-61-klist.o += "
    "-include $(srctree)/$(src)/klist-bench-rename.h\n"
    "# Under QEMU's TCG a hot function that straddles a 4 KiB page costs\n"
    "# more per call (translation blocks are not chained across guest\n"
    "# pages): both klists and both walks start each function on a\n"
    "# 512-byte boundary, so none of their hot paths crosses a page.\n"
    "CFLAGS_klist.o += -falign-functions=512\n"
    "CFLAGS_klist-bench-ours.o += -falign-functions=512\n"
    "CFLAGS_klist-bench-61.o += -falign-functions=512\n"
    "CFLAGS_klist-bench-61-klist.o += -falign-functions=512\n")
if aa:
    makefile_new += "CFLAGS_klist-bench-61.o += -DKLIST_BENCH_AA_CONTROL\n"
parts = [diff(p, None, files[p]) for p in sorted(files)]
parts.append(diff("lib/Makefile", makefile, makefile_new))
with open(out, "w") as f:
    f.write("".join(parts))
PY
rm -rf "$series"
mv "$series.new" "$series"
printf "  %s\n" "$series"/*.patch
"$here/kernel-tree.sh" sync "$series" "$pristine" "$src"

mkdir -p "$build"
rm -f "$build"/test.log "$build"/test-boot*.log
step "kunit.py run (lean config, --rounds $rounds, --steps $steps${aa:+, A/A control}); output in $build/kunit.out"
kernel_kunit_run --kunitconfig="$project/tests/qemu/kunitconfig.bench" \
	--kernel_args="klist_bench.rounds=$rounds" \
	--kernel_args="klist_bench.steps=$steps" \
	--raw_output=all klist_bench
rc=$kernel_rc
grep -E '^\[[0-9:]{8}\] (Elapsed|Configuring|Building|Starting)' \
	"$build/kunit.out" | sed 's|^|  |' || true
if [ ! -s "$build/test.log" ]; then
	step "kunit.py failed (exit $rc); end of $build/kunit.out:"
	tail -40 "$build/kunit.out"
	exit 1
fi
mv "$build/test.log" "$build/test-boot1.log"
for b in $(seq 2 "$boots"); do
	step "boot $b of $boots: kunit.py exec"
	set +e
	(cd "$src" && python3 tools/testing/kunit/kunit.py exec \
		--arch=x86_64 --build_dir="$build" \
		--kunitconfig="$project/tests/qemu/kunitconfig.bench" \
		--qemu_args="-smp 2" --timeout="$timeout" \
		--kernel_args="klist_bench.rounds=$rounds" \
		--kernel_args="klist_bench.steps=$steps" \
		--raw_output=all klist_bench) < /dev/null >> "$build/kunit.out" 2>&1
	r=$?
	set -e
	[ $r -eq 0 ] || rc=$r
	if [ -s "$build/test.log" ]; then
		mv "$build/test.log" "$build/test-boot$b.log"
	fi
done

# The hot functions of both klists and walks, and whether any straddles
# a 4 KiB page (which TCG makes dearer, see the Makefile lines above).
nm -S --defined-only "$build/vmlinux" 2>/dev/null |
	awk '$4 ~ /^(kernel_)?klist_(next|prev|step|iter_init|iter_init_node|iter_exit|put|dec_and_del|release)$|^klb_walk$/' \
	> "$build/hot-functions.txt" || true

stamp=$(date +%Y%m%d-%H%M%S)
mkdir -p "$build/runs"
cat "$build"/test-boot*.log > "$build/runs/test-$stamp.log"
step "the table (from $build/test-boot*.log)"
set +e
python3 - "$build/bench.txt" "$build/bench.json" "$(( $(date +%s) - kernel_t0 ))" \
	"$rc" "$build/hot-functions.txt" "$boots" "$build"/test-boot*.log <<'PY'
import json, re, statistics, sys
txt_out, json_out, wall, kunit_rc, hot, nboots = sys.argv[1:7]
logs = sys.argv[7:]
texts = [open(log, errors="replace").read() for log in logs]
text = "\n".join(texts)

def tagged(pattern):
    # every match of every boot's log, with the boot's number first
    return [(b,) + m for b, t in enumerate(texts, 1)
            for m in re.findall(pattern, t)]

rows = [r[1:] for r in tagged(r"klist-bench: size=(\d+) impl=(\S+) round=(\d+) "
                              r"walks=(\d+) ns_per_step=([\d.]+)")]
bratios = tagged(r"klist-bench: size=(\d+) round=(\d+) ratio=([\d.]+)")
ratios = [r[1:] for r in bratios]
summaries = tagged(r"klist-bench: size=(\d+) impl=(\S+) rounds=(\d+) "
                   r"median=([\d.]+)")
sizes = sorted({int(r[0]) for r in rows})
# the second klist: 6.1, or ours-copy in the A/A control
impls = ["ours"] + sorted({r[1] for r in rows} - {"ours"})[:1]
if len(impls) < 2:
    impls.append("6.1")
other = impls[1]

def stats(v):
    q1, med, q3 = statistics.quantiles(v, n=4, method="inclusive")
    return {"median": med, "q1": q1, "q3": q3, "min": min(v), "max": max(v),
            "rounds": len(v), "values": v}

res, problems = [], []
rows_b = {b: re.findall(r"klist-bench: size=(\d+) impl=(\S+) round=(\d+) "
                        r"walks=(\d+) ns_per_step=([\d.]+)", t)
          for b, t in enumerate(texts, 1)}
for s in sizes:
    e = {"size": s}
    for i in impls:
        v = [float(r[4]) for r in rows if int(r[0]) == s and r[1] == i]
        e[i] = stats(v) if len(v) >= 2 else None
        e["walks_per_burst"] = int(next(r[3] for r in rows if int(r[0]) == s))
    rv = [float(r[2]) for r in ratios if int(r[0]) == s]
    e["ratio"] = stats(rv) if len(rv) >= 2 else None
    if not all(e[k] for k in impls + ["ratio"]):
        problems.append("size %d: too few rounds" % s)
        continue
    # each boot's median ratio; the kernel's own summary must agree
    e["boot_ratio_medians"] = []
    for b in range(1, len(texts) + 1):
        v = [float(r[3]) for r in bratios if r[0] == b and int(r[1]) == s]
        if len(v) >= 2:
            e["boot_ratio_medians"].append(statistics.median(v))
        for bb, sz, what, n, med in summaries:
            if bb != b or int(sz) != s:
                continue
            v = [float(r[4]) for r in rows_b[b] if int(r[0]) == s and r[1] == what]
            if what == "ratio":
                v = [float(r[3]) for r in bratios if r[0] == b and int(r[1]) == s]
            if v and abs(float(med) - statistics.median(v)) > 0.0011:
                problems.append("boot %d size %d %s: kernel median %s, script %.4f"
                                % (b, s, what, med, statistics.median(v)))
    res.append(e)

oks = [re.findall(r"^(?:\[[ \d.]+\] )?\s*(not ok|ok) \d+ klist_bench\s*$",
                  t, re.M) for t in texts]
kvm = "Hypervisor detected: KVM" in text
cs = re.findall(r"clocksource: Switched to clocksource (\S+)", text)
ver = re.search(r"Linux version (\S+)", text)
straddle, nhot = [], 0
for l in open(hot):
    f = l.split()
    if len(f) == 4:
        nhot += 1
        addr, size = int(f[0], 16), int(f[1], 16)
        if addr % 4096 + size > 4096:
            straddle.append("%s at %s (+%d)" % (f[3], f[0][-8:], size))
if not sizes:
    problems.append("no klist-bench lines in the console log")
for b, ok in enumerate(oks, 1):
    if not ok or ok[-1] != "ok":
        problems.append("boot %d: the KUnit suite klist_bench did not report ok" % b)
if len(texts) != int(nboots):
    problems.append("%d of %s boots left a console log" % (len(texts), nboots))
if kunit_rc != "0":
    problems.append("kunit.py exited %s" % kunit_rc)

def f3(x): return "%.3f" % x
def f4(x): return "%.4f" % x
def cell(st, f):
    return "%s [%s..%s]" % (f(st["median"]), f(st["q1"]), f(st["q3"]))

accel = "KVM" if kvm else "TCG (no KVM)"
lines = [
    "klist-bench: ns per klist_next() step, one walker, no other user of the list;",
    "  kernel %s (lean config), QEMU %s, -smp 2, clocksource %s"
    % (ver.group(1) if ver else "?", accel, cs[-1] if cs else "?"),
    "  median [q1..q3] of the interleaved rounds of %d boot(s); "
    "ratio = ours/%s of each round's pair" % (len(texts), other),
    "",
    "%6s  %-27s  %-27s  %-27s  %-15s  %6s" % (
        "size", "ours ns/step", other + " ns/step", "ratio ours/" + other,
        "boots' ratios", "rounds"),
]
for e in res:
    bm = e["boot_ratio_medians"]
    lines.append("%6d  %-27s  %-27s  %-27s  %-15s  %6d" % (
        e["size"], cell(e["ours"], f3), cell(e[other], f3),
        cell(e["ratio"], f4), "%s..%s" % (f4(min(bm)), f4(max(bm))) if bm else "-",
        e["ratio"]["rounds"]))
lines.append("")
for e in res:
    lines.append("  size %d: ours min..max %s..%s, %s %s..%s, ratio %s..%s, "
                 "%d walks per burst"
                 % (e["size"], f3(e["ours"]["min"]), f3(e["ours"]["max"]), other,
                    f3(e[other]["min"]), f3(e[other]["max"]),
                    f4(e["ratio"]["min"]), f4(e["ratio"]["max"]),
                    e["walks_per_burst"]))
lines.append("  hot functions straddling a 4 KiB page: %s (of %d checked)"
             % (", ".join(straddle) or "none", nhot))
if other != "6.1":
    lines.append("A/A CONTROL: the second klist is a copy of ours, built as 6.1's "
                 "is; a ratio away from 1 is the harness's bias.")
if not kvm:
    lines.append("Under TCG the CPU is emulated: the ns are emulator time, not a "
                 "real machine's. Only the ratio counts.")
lines.append("wall time of this run: %s s" % wall)
for p in problems:
    lines.append("PROBLEM: " + p)
out = "\n".join(lines) + "\n"
sys.stdout.write(out)
open(txt_out, "w").write(out)
json.dump({"kernel": ver.group(1) if ver else None, "accel": accel,
           "clocksource": cs[-1] if cs else None, "smp": 2,
           "impls": impls, "aa_control": other != "6.1",
           "hot_functions_straddling_a_page": straddle,
           "note": "ns per klist_next() step; under TCG only the ratio counts",
           "boots": len(texts), "wall_s": int(wall), "problems": problems,
           "sizes": res},
          open(json_out, "w"), indent=1)
sys.exit(1 if problems else 0)
PY
prc=$?
set -e
cp "$build/bench.txt" "$build/runs/bench-$stamp.txt" 2>/dev/null || true
cp "$build/bench.json" "$build/runs/bench-$stamp.json" 2>/dev/null || true
step "done: $([ $prc -eq 0 ] && echo ok || echo FAILED)"
exit $prc
