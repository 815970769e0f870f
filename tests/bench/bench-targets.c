// SPDX-License-Identifier: GPL-2.0
/*
 * The ratios and targets (docs/benchmarks.md), judged from the results
 * and never asserted: per step, the fast flavour within 1.2x of the
 * lower bound and ours no slower than the kernel's klist on the same
 * runtime; the writer's p99 at least 100x below the rwlock-list's; a
 * node no bigger than the kernel's.  The table and the JSON report
 * them; the plots also use big.
 */
#include "bench-driver.h"

struct targets tg;
int big;

static void step_ratio(struct step_ratio *r, const char *label,
		       const char *key, int a, int b, double target)
{
	int s;

	*r = (struct step_ratio){ .label = label, .key = key, .a = a, .b = b,
				  .target = target };
	r->have = a >= 0 && b >= 0 && ran(PART_STEP);
	r->met = r->have && target > 0;
	r->within_noise = r->met;
	for (s = 0; r->have && s < cfg.nsizes; s++) {
		r->med[s] = paired_ratio(step_ns, s, a, b, 0.5);
		r->q1[s] = paired_ratio(step_ns, s, a, b, 0.25);
		r->q3[s] = paired_ratio(step_ns, s, a, b, 0.75);
		r->best[s] = min_d(step_ns[s][a], cfg.rounds) /
			     min_d(step_ns[s][b], cfg.rounds);
		if (r->med[s] > target)
			r->met = false;
		if (r->q1[s] > target)
			r->within_noise = false;
	}
	if (r->met)
		r->within_noise = false;
}

double pair_ratio(int s, int a, int b, double q)
{
	return paired_ratio(pair_ns, s, a, b, q);
}

static bool node_le(int a, int b)
{
	return a >= 0 && b >= 0 && impls[a]->node_bytes <= impls[b]->node_bytes;
}

void compute_targets(void)
{
	int s, i;

	for (s = 0; s < cfg.nsizes; s++)
		if (cfg.sizes[s] > cfg.sizes[big])
			big = s;

	step_ratio(&tg.step[SR_FAST_LOWER], "fast/lower-bound",
		   "fast_over_lower_bound", i_ours_fast, i_lower, 1.2);
	step_ratio(&tg.step[SR_CHECKED_FAST], "checked/fast",
		   "checked_over_fast", i_ours, i_ours_fast, 0);
	step_ratio(&tg.step[SR_OURS_KERNEL], "ours/kernel, checked shim",
		   "ours_over_kernel_checked", i_ours, i_kernel, 1.0);
	step_ratio(&tg.step[SR_OURS_KERNEL_FAST], "ours/kernel, fast runtime",
		   "ours_over_kernel_fast", i_ours_fast, i_kernel_fast, 1.0);
	/* What a klist walk costs against what a programmer would pick. */
	step_ratio(&tg.step[SR_FAST_MUTEX], "fast/mutex-list",
		   "fast_over_mutex_list", i_ours_fast, i_mutex, 0);
	step_ratio(&tg.step[SR_FAST_RCU], "fast/rculist",
		   "fast_over_rculist", i_ours_fast, i_rcu, 0);

	if (ran(PART_LAT) && i_rwlock >= 0) {
		uint64_t w = pct(lat[big][i_rwlock].s, lat[big][i_rwlock].n, 99);

		for (i = 0; i < nimpls; i++) {
			uint64_t o = pct(lat[big][i].s, lat[big][i].n, 99);

			tg.p99_gain[i] = o ? (double)w / o : 0;
			tg.p99_judged[i] = i == i_ours || i == i_ours_fast;
			tg.p99_met[i] = tg.p99_gain[i] >= 100;
		}
	}
	tg.bytes_met = node_le(i_ours, i_kernel);
	tg.bytes_fast_met = node_le(i_ours_fast, i_kernel_fast);
}
