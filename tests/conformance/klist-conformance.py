#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The klist conformance report.

Runs the project's klist suites, klist-torture and the explorer's klist
scenarios built three ways (our
lib/klist.c; a kernel's lib/klist.c unchanged; the kernel's with
kernel-patches/upstream/ applied) and prints, for every case, the three
verdicts side by side, with the first report of each failure.

Some cases test this project's stricter policy, not klist's contract as
the kernel documents it (misuse reported and survived, add and delete
safe in hardirq): POLICY below names them and why, so a difference there
is not counted as a kernel bug.  KERNEL_BUGS names the cases the
kernel's own klist is known to fail (K6), which the fix must make pass.

With --check, exits 1 unless: ours passes every case and the torture;
the fixed kernel klist passes every case that is not POLICY, and the
torture; the unfixed one fails every KERNEL_BUGS case.
"""
import argparse
import re
import subprocess
import sys

SUITES = ["klist", "klist_lessons", "klist_hardirq", "klist_userspace"]

# case -> why a kernel klist is allowed to fail it (our stricter policy).
_K7B = "K7b: ours adds and deletes with interrupts off; 6.1 does not, so no klist use in hardirq"
_MISUSE = "misuse reported and survived; 6.1 WARNs, crashes or corrupts"
POLICY = {
    "klist_k3_every_remover_woken":
        "K3: ours lets several tasks remove one node; 6.1 WARNs in knode_kill()",
    "klist_k7_walk_safe_against_interrupt": _K7B,
    "klist_hardirq_add_in_callback": _K7B,
    "klist_hardirq_del_in_callback": _K7B,
    "klist_hardirq_release_in_callback": _K7B,
    "klist_hardirq_release_wakes_remover": _K7B,
    "klist_hardirq_walk_while_process_adds_and_deletes": _K7B,
    "klist_misuse_add_next_to_unlinked_node_reported": _MISUSE + " (NULL dereference)",
    "klist_misuse_del_of_released_node_reported": _MISUSE + " (NULL dereference)",
    "klist_misuse_double_del_reported": _MISUSE + " (WARN in knode_kill(), count underflow)",
    "klist_misuse_null_arguments_reported": _MISUSE + " (NULL dereference)",
    "klist_misuse_remove_in_atomic_reported":
        "ours calls might_sleep() in every klist_remove(); 6.1 only when it sleeps",
    "klist_misuse_walk_from_node_of_other_list": _MISUSE + " (a count taken on 0)",
    "klist_x2_add_of_linked_node_reported": "X2: " + _MISUSE + " (the list is cut)",
}

# The kernel's defect the upstream patch fixes (lesson K6).
KERNEL_BUGS = {
    "klist_k6_release_never_touches_freed_node":
        "6.1's release writes n_klist into the node the remover freed",
    "klist_k6_readd_at_once_keeps_new_list":
        "6.1's release clears n_klist of the node re-added on its new list",
}

# The explorer's scenarios (tests/explore/klist-scenarios.c), depth-first
# up to EXPLORE_BOUND preemptions within EXPLORE_MS each.
EXPLORE_BOUND = 2
EXPLORE_MS = 1500
POLICY.update({
    "explore:klist_two_removers_vs_walk": POLICY["klist_k3_every_remover_woken"],
    "explore:klist_walk_in_irq_vs_add_del": _K7B,
})
KERNEL_BUGS.update({
    "explore:klist_walk_fwd_vs_remove": KERNEL_BUGS["klist_k6_release_never_touches_freed_node"],
    "explore:klist_walk_back_vs_remove": KERNEL_BUGS["klist_k6_release_never_touches_freed_node"],
})

# K6 again, on the real scheduler: 6.1 fails it only when the remover
# wins the race (often on a loaded machine), so either verdict is fine.
KERNEL_BUGS_BY_CHANCE = {
    "klist_test_readd_while_walked":
        "6.1's release may clear n_klist of the re-added node (K6), by chance",
    # Three deviations deep: within the budget or not.
    "explore:klist_readd_after_remove":
        "6.1's release clears n_klist of the re-added node (K6), if the budget reaches it",
    "explore:klist_remove_vs_last_put":
        "6.1's release clears n_klist of the node the remover re-added (K6), if the budget reaches it",
}

# Check's verbose result line: where:line:verdict:case:case:index: message
RESULT = re.compile(r"^(.*?):(-?\d+):([PFE]):([^:]+):([^:]+):(\d+): ?(.*)$")


# ThreadSanitizer's exit status after a report.  The tests, the shim and
# the torture are the same for every flavour and ours runs race-free, so
# a TSan report only with a kernel's klist.c is a data race in that
# klist.c: 6.1 reads n_klist with plain loads (klist_node_attached(),
# klist_put()) that knode_kill() and klist_release() write under the lock.
TSAN_EXIT = 66


def tsan_report(msg):
    return "ThreadSanitizer" in msg or "return value %d" % TSAN_EXIT in msg


def run_suites(binary):
    """{case: (verdict, message)} over every suite of @binary."""
    results = {}
    for suite in SUITES:
        proc = subprocess.run([binary, suite], capture_output=True, text=True,
                              env={"CK_VERBOSITY": "verbose", "PATH": "/usr/bin:/bin"},
                              timeout=300)
        seen = 0
        for line in (proc.stdout + proc.stderr).splitlines():
            m = RESULT.match(line)
            if not m:
                continue
            verdict = {"P": "pass", "F": "FAIL", "E": "ERROR"}[m.group(3)]
            results[m.group(4)] = (verdict, suite, m.group(7).strip())
            seen += 1
        if not seen:
            results["(suite %s)" % suite] = ("ERROR", suite,
                                             "no result: exit %d" % proc.returncode)
    return results


def run_explore(binary):
    """{"explore:" + scenario: (verdict, "explore", first report)}."""
    results = {}
    names = subprocess.run([binary, "-l"], capture_output=True, text=True,
                           timeout=60).stdout.split()
    for name in [n for n in names if n.startswith("klist_")]:
        proc = subprocess.run([binary, "-q", "-k", str(EXPLORE_BOUND), "-t",
                               str(EXPLORE_MS), name], capture_output=True,
                              text=True, timeout=300)
        out = proc.stdout + proc.stderr
        result = [l.split() for l in out.splitlines() if l.startswith("RESULT ")]
        report = [l.split(": ", 1)[-1] for l in out.splitlines()
                  if l.startswith("REPORT ")]
        if not result:
            results["explore:" + name] = ("ERROR", "explore", "no RESULT line")
            continue
        r = result[-1]
        failed = int(r[4]) > 0
        results["explore:" + name] = (
            "FAIL" if failed else "pass", "explore",
            ("at schedule %s: %s" % (r[4], report[0] if report else "?"))
            if failed else "%s schedules" % r[3])
    return results


def run_torture(binary, seed):
    proc = subprocess.run([binary, "--duration-ms", "3000", "--seed", str(seed),
                           "--kernel-contract"],
                          capture_output=True, text=True, timeout=120)
    out = proc.stdout + proc.stderr
    summary = [l for l in out.splitlines() if l.startswith("SUMMARY:")]
    first = [l for l in out.splitlines() if "ERROR" in l]
    if proc.returncode == TSAN_EXIT:
        first = ["ThreadSanitizer: data race (exit %d)" % TSAN_EXIT]
    ok = proc.returncode == 0 and summary and "errors=0" in summary[-1]
    return ("pass" if ok else "FAIL",
            (first[0] if first else (summary[-1] if summary else "no summary"))[:160])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for name in ("ours", "kernel", "fixed"):
        ap.add_argument("--" + name, required=True)
        ap.add_argument("--%s-torture" % name, required=True)
        # Absent in a build without the explorer: the run says so.
        ap.add_argument("--%s-explore" % name)
    ap.add_argument("--source", default="?")
    ap.add_argument("--seed", type=int, default=2005)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--tsan", action="store_true",
                    help="a ThreadSanitizer build: a kernel klist's data "
                         "races are reported, not failures")
    args = ap.parse_args()

    flavours = [("ours", args.ours, args.ours_torture),
                ("kernel", args.kernel, args.kernel_torture),
                ("kernel+fix", args.fixed, args.fixed_torture)]
    explorers = {"ours": args.ours_explore, "kernel": args.kernel_explore,
                 "kernel+fix": args.fixed_explore}
    res = {name: run_suites(b) for name, b, _ in flavours}
    # Under ThreadSanitizer the explorer's column is left to the other
    # builds: its tasks are fibers of one thread, and at a tenth of the
    # speed its time budget no longer reaches K6 (441 schedules), so the
    # column would say the harness lost a bug it has not.
    have_explorer = all(explorers.values()) and not args.tsan
    if have_explorer:
        for name, _, _ in flavours:
            res[name].update(run_explore(explorers[name]))
    elif args.tsan:
        print("conformance: ThreadSanitizer build: the explore column is run "
              "by the other builds, not here")
    else:
        print("conformance: no explorer in this build: "
              "the explore column is not run")
    tort = {name: run_torture(t, args.seed) for name, _, t in flavours}

    order = SUITES + ["explore"]
    cases = sorted(set().union(*[set(r) for r in res.values()]),
                   key=lambda c: (order.index(res["ours"].get(c, ("", "klist"))[1])
                                  if c in res["ours"] else 99, c))
    print("klist conformance: ours vs %s (its lib/klist.c and "
          "include/linux/klist.h, unchanged), and with kernel-patches/upstream/"
          % args.source)
    print()
    print("| case | ours | kernel | kernel+fix | note |")
    print("|---|---|---|---|---|")
    failures = []
    for c in cases:
        v = [res[n].get(c, ("missing", "", ""))[0] for n, _, _ in flavours]
        note = ("policy: " + POLICY[c] if c in POLICY else
                "K6: " + KERNEL_BUGS[c] if c in KERNEL_BUGS else
                "K6: " + KERNEL_BUGS_BY_CHANCE[c] if c in KERNEL_BUGS_BY_CHANCE
                else "")
        print("| %s | %s | %s | %s | %s |" % (c, v[0], v[1], v[2], note))
        for (n, _, _), verdict in zip(flavours, v):
            if verdict != "pass":
                failures.append((n, c, res[n].get(c, ("", "", "missing"))[2]))
    print("| klist-torture --kernel-contract, 3 s, seed %d | %s | %s | %s | |" %
          (args.seed, tort["ours"][0], tort["kernel"][0], tort["kernel+fix"][0]))
    print()
    if failures:
        print("First report of each failure:")
        for n, c, msg in failures:
            print("  %-10s %s: %s" % (n, c, msg[:240]))
    for n, _, _ in flavours:
        if tort[n][0] != "pass":
            print("  %-10s klist-torture: %s" % (n, tort[n][1]))

    counts = {}
    for n, _, _ in flavours:
        r = res[n]
        counts[n] = (sum(1 for c in cases if r.get(c, ("",))[0] == "pass"), len(cases))
    print()
    print("Summary: " + ", ".join("%s %d/%d" % (n, p, t) for n, (p, t) in counts.items()))

    if not args.check:
        return 0
    raced = set()
    if args.tsan:
        # Only a kernel flavour's, and only TSan's: see TSAN_EXIT.
        for n in ("kernel", "kernel+fix"):
            for c in cases:
                r = res[n].get(c, ("", "", ""))
                if r[0] != "pass" and c not in POLICY and tsan_report(r[2]):
                    raced.add((n, c))
            if tort[n][0] != "pass" and tsan_report(tort[n][1]):
                raced.add((n, "torture"))
        print("conformance: ThreadSanitizer: %d data race(s) of a kernel "
              "klist.c that ours has not (6.1's plain n_klist loads): %s" %
              (len(raced), ", ".join("%s %s" % nc for nc in sorted(raced))
               or "none"))
    bad = []
    for c in cases:
        if res["ours"].get(c, ("missing",))[0] != "pass":
            bad.append("ours fails %s" % c)
        if c not in POLICY and ("kernel+fix", c) not in raced and \
                res["kernel+fix"].get(c, ("missing",))[0] != "pass":
            bad.append("the fixed kernel klist fails %s" % c)
    for c in sorted(set(cases) - set(POLICY) - set(KERNEL_BUGS) -
                    set(KERNEL_BUGS_BY_CHANCE)):
        if res["kernel"].get(c, ("missing",))[0] != "pass" and \
                ("kernel", c) not in raced:
            bad.append("the unfixed kernel klist fails %s, which no list explains" % c)
    for c in KERNEL_BUGS:
        if c.startswith("explore:") and not have_explorer:
            continue
        if res["kernel"].get(c, ("missing",))[0] == "pass":
            bad.append("the unfixed kernel klist passes %s (the harness lost K6)" % c)
        if c not in cases:
            bad.append("case %s missing" % c)
    for n in ("ours", "kernel+fix"):
        if tort[n][0] != "pass" and (n, "torture") not in raced:
            bad.append("%s fails klist-torture" % n)
    for b in bad:
        print("conformance: " + b)
    print("conformance: %s" % ("FAIL" if bad else "PASS"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
