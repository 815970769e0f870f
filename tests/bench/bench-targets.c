// SPDX-License-Identifier: GPL-2.0
/*
 * The targets (docs/benchmarks.md), judged from the results: our
 * per-step cost no worse than the kernel's, the writer's p99 at least
 * 100x below the rwlock-list's, and a node no bigger than the kernel's.
 * The table and the JSON report them; the plots also use big.
 */
#include "bench-driver.h"

struct targets tg;
int big;

static double step_ratio(int s, int a, int b, double q)
{
	return paired_ratio(step_ns, s, a, b, q);
}

void compute_targets(void)
{
	int s;

	for (s = 0; s < cfg.nsizes; s++)
		if (cfg.sizes[s] > cfg.sizes[big])
			big = s;
	tg.step_met = i_kernel >= 0 && ran(PART_STEP);
	for (s = 0; tg.step_met && s < cfg.nsizes; s++) {
		tg.step_ratio[s] = step_ratio(s, i_ours, i_kernel, 0.5);
		tg.step_q1[s] = step_ratio(s, i_ours, i_kernel, 0.25);
		tg.step_q3[s] = step_ratio(s, i_ours, i_kernel, 0.75);
		tg.step_min_ratio[s] = min_d(step_ns[s][i_ours], cfg.rounds) /
			min_d(step_ns[s][i_kernel], cfg.rounds);
	}
	for (s = 0; tg.step_met && s < cfg.nsizes; s++)
		if (tg.step_ratio[s] > 1.0)
			tg.step_met = false;
	if (ran(PART_LAT)) {
		uint64_t o = pct(lat[big][i_ours].s, lat[big][i_ours].n, 99);
		uint64_t w = pct(lat[big][i_rwlock].s, lat[big][i_rwlock].n, 99);

		tg.p99_gain = o ? (double)w / o : 0;
		tg.p99_met = tg.p99_gain >= 100;
	}
	tg.bytes_met = i_kernel >= 0 &&
		impls[i_ours]->node_bytes <= impls[i_kernel]->node_bytes;
}
