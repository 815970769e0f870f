// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel-only KUnit benchmark suite "klist_bench", built by
 * scripts/qemu-kernel-bench.sh (target qemu-kernel-bench) into a lean
 * kernel that carries two klists: ours (this tree's lib/klist.c, the
 * project's series) and Linux 6.1's own lib/klist.c, compiled beside it
 * under other names (klist-bench-61.c).  Not part of qemu-check.
 *
 * The measure is the userspace bench's per-step cost: ns per
 * klist_next() step of a walk over a list of N nodes, by one thread, no
 * other user of the list.  A burst is a number of whole walks (iterator
 * init, N steps, the step off the end, iterator exit) timed with
 * ktime_get_ns() around it; ns per step = burst time / nodes visited.
 * For each N the two klists are measured in rounds, one burst each per
 * round, the first of the pair alternating (ours then 6.1, 6.1 then
 * ours, ...), after one round that is not counted.  Each round gives
 * both costs and their ratio ours/6.1; the ratio of each round's pair
 * cancels what drifts between rounds.
 *
 * Lines, one a measurement (parsed by the script):
 *   klist-bench: size=N impl=I round=R walks=W ns_per_step=X
 *   klist-bench: size=N round=R ratio=X
 *   klist-bench: size=N impl=I|ratio rounds=R median=X q1=X q3=X min=X max=X
 * where I is ours or 6.1 (ours-copy in the script's A/A control).
 * Quartiles interpolate linearly between ranks (position (R-1)p), as
 * the script's Python does.
 *
 * A benchmark, not a timed assertion: the case fails only if the
 * measurement itself failed (no memory, a walk that did not visit every
 * node, a clock that did not advance), never on speed.
 *
 * Parameters (kernel command line, kunit.py --kernel_args):
 *   klist_bench.rounds=R  counted rounds per size (default 21, 3..101)
 *   klist_bench.steps=S   klist_next() steps per burst (default 262144)
 */

#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "klist-bench.h"

#define KLB_MAX_ROUNDS	101
#define KLB_NIMPL	2

static unsigned int rounds = 21;
module_param(rounds, uint, 0444);
MODULE_PARM_DESC(rounds, "counted rounds per list size (3..101)");

static unsigned int steps = 1 << 18;
module_param(steps, uint, 0444);
MODULE_PARM_DESC(steps, "klist_next() steps per timed burst");

static const struct klist_bench_ops * const klb_impls[KLB_NIMPL] = {
	&klist_bench_ours_ops,
	&klist_bench_61_ops,
};

static const unsigned int klb_sizes[] = { 16, 256, 4096 };

static void klb_size_desc(const unsigned int *size, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "size=%u", *size);
}

KUNIT_ARRAY_PARAM(klb_size, klb_sizes, klb_size_desc);

/* Fixed point: costs in picoseconds per step, ratios in 1/10000. */
#define KLB_RATIO_ONE	10000

static int klb_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Quantile k/4 of sorted v[0..n-1], interpolated at position (n-1)k/4. */
static u64 klb_quartile(const u64 *v, unsigned int n, unsigned int k)
{
	unsigned int i = (n - 1) * k / 4, f = (n - 1) * k % 4;

	if (!f)
		return v[i];
	return div_u64(v[i] * (4 - f) + v[i + 1] * f + 2, 4);
}

/* @v / @scale with 3 (scale 1000) or 4 (scale 10000) decimals */
static const char *klb_fmt(char *buf, size_t size, u64 v, u32 scale)
{
	u32 frac;
	u64 whole = div_u64_rem(v, scale, &frac);

	snprintf(buf, size, "%llu.%0*u", whole, scale == 1000 ? 3 : 4, frac);
	return buf;
}

static void klb_summary(struct kunit *test, unsigned int size,
			const char *what, const u64 *val, unsigned int n,
			u64 *sorted, u32 scale)
{
	char q[5][24];
	int k;

	memcpy(sorted, val, n * sizeof(*sorted));
	sort(sorted, n, sizeof(*sorted), klb_cmp_u64, NULL);
	for (k = 0; k <= 4; k++)
		klb_fmt(q[k], sizeof(q[k]), klb_quartile(sorted, n, k), scale);
	kunit_info(test,
		   "klist-bench: size=%u impl=%s rounds=%u median=%s q1=%s q3=%s min=%s max=%s\n",
		   size, what, n, q[2], q[1], q[3], q[0], q[4]);
}

/*
 * One burst of @walks whole walks; the cost per step in picoseconds, or
 * 0 if the walks did not visit every node or the clock did not advance.
 */
static u64 klb_burst(const struct klist_bench_ops *ops,
		     struct klist_bench_list *l, unsigned int nr,
		     unsigned int walks)
{
	unsigned long visited;
	u64 t0, t;

	ops->walk(l, 1);	/* the other klist's burst evicted this one */
	t0 = ktime_get_ns();
	visited = ops->walk(l, walks);
	t = ktime_get_ns() - t0;
	if (visited != (unsigned long)walks * nr || !t)
		return 0;
	return div64_u64(t * 1000, visited);
}

static void klist_bench_walk(struct kunit *test)
{
	unsigned int nr = *(const unsigned int *)test->param_value;
	unsigned int n = clamp(rounds, 3U, (unsigned int)KLB_MAX_ROUNDS);
	unsigned int walks = max(1U, steps / nr);
	struct klist_bench_list *l[KLB_NIMPL];
	u64 *ps[KLB_NIMPL], *ratio, *sorted;
	unsigned int r, j;
	char buf[24];

	for (j = 0; j < KLB_NIMPL; j++) {
		ps[j] = kunit_kcalloc(test, n, sizeof(u64), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, ps[j]);
	}
	ratio = kunit_kcalloc(test, n, sizeof(u64), GFP_KERNEL);
	sorted = kunit_kcalloc(test, n, sizeof(u64), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ratio);
	KUNIT_ASSERT_NOT_NULL(test, sorted);

	for (j = 0; j < KLB_NIMPL; j++) {
		l[j] = klb_impls[j]->create(nr);
		if (!l[j]) {
			while (j--)
				klb_impls[j]->destroy(l[j]);
			KUNIT_FAIL(test, "no memory for %u nodes", nr);
			return;
		}
	}

	/* Round 0 warms both up and is not counted. */
	for (r = 0; r <= n; r++) {
		u64 cost[KLB_NIMPL];

		for (j = 0; j < KLB_NIMPL; j++) {
			unsigned int k = (j + r) % KLB_NIMPL;

			cost[k] = klb_burst(klb_impls[k], l[k], nr, walks);
			cond_resched();
		}
		if (!cost[0] || !cost[1]) {
			KUNIT_FAIL(test, "round %u: a walk missed nodes or the clock stood still",
				   r);
			break;
		}
		if (!r)
			continue;
		for (j = 0; j < KLB_NIMPL; j++) {
			ps[j][r - 1] = cost[j];
			kunit_info(test,
				   "klist-bench: size=%u impl=%s round=%u walks=%u ns_per_step=%s\n",
				   nr, klb_impls[j]->name, r, walks,
				   klb_fmt(buf, sizeof(buf), cost[j], 1000));
		}
		ratio[r - 1] = div64_u64(cost[0] * KLB_RATIO_ONE, cost[1]);
		kunit_info(test, "klist-bench: size=%u round=%u ratio=%s\n", nr, r,
			   klb_fmt(buf, sizeof(buf), ratio[r - 1], KLB_RATIO_ONE));
	}

	for (j = 0; j < KLB_NIMPL; j++)
		klb_impls[j]->destroy(l[j]);
	if (r <= n)
		return;

	for (j = 0; j < KLB_NIMPL; j++)
		klb_summary(test, nr, klb_impls[j]->name, ps[j], n, sorted, 1000);
	klb_summary(test, nr, "ratio", ratio, n, sorted, KLB_RATIO_ONE);
}

static struct kunit_case klist_bench_cases[] = {
	KUNIT_CASE_PARAM(klist_bench_walk, klb_size_gen_params),
	{}
};

static struct kunit_suite klist_bench_suite = {
	.name = "klist_bench",
	.test_cases = klist_bench_cases,
};

kunit_test_suites(&klist_bench_suite);

MODULE_LICENSE("GPL");
