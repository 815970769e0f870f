// SPDX-License-Identifier: GPL-2.0
/*
 * The table on stdout: the configuration, one section per part that
 * ran, bytes per node, and the targets.
 */
#include <stdio.h>
#include <unistd.h>

#include "bench-driver.h"

/* Printed before the run and again at the head of the table. */
void print_config(FILE *f, const char *pre)
{
	int s;

	fprintf(f, "%sseed %llu, build %s, %ld online cpus\n", pre, cfg.seed,
		BENCH_BUILD_INFO, sysconf(_SC_NPROCESSORS_ONLN));
	fprintf(f, "%ssizes", pre);
	for (s = 0; s < cfg.nsizes; s++)
		fprintf(f, "%s%u", s ? "," : " ", cfg.sizes[s]);
	fprintf(f, "; per-step %u rounds x %u us; throughput %u nodes, 1..%u threads, %u x %u ms\n",
		cfg.rounds, cfg.step_us, cfg.tput_size, cfg.max_threads,
		cfg.tput_rounds, cfg.tput_ms);
	fprintf(f, "%swork %u ns/node (%u iterations, %.0f ns measured); writer: %u walkers, %u ms, pause %u us mean\n",
		pre, cfg.work_ns, work_iters, work_ns_measured, cfg.walkers,
		cfg.lat_ms, cfg.gap_us);
	fprintf(f, "%swriter latency in %u interleaved chunks; remove wait: %u rounds in chunks of %d, walker holds the node %u us\n",
		pre, cfg.chunks, cfg.remove_rounds, RM_CHUNK, cfg.hold_us);
}

void print_table(void)
{
	int s, i;
	unsigned int t;

	printf("\nklist-bench\n");
	print_config(stdout, "  ");
	for (i = 0; i < nimpls; i++)
		printf("  %-12s %s\n", impls[i]->name, impls[i]->what);

	if (ran(PART_STEP)) {
		printf("\n1. per-step cost, one thread, no work: ns per klist_next (locked lists: per node, lock amortised)\n");
		printf("   median of %u interleaved rounds of %u us [min]; ours/kernel: median of the paired ratios [quartiles]\n",
		       cfg.rounds, cfg.step_us);
		printf("   %-8s", "nodes");
		for (i = 0; i < nimpls; i++)
			printf(" %17s", impls[i]->name);
		if (i_kernel >= 0)
			printf("  %s", "ours/kernel");
		printf("\n");
		for (s = 0; s < cfg.nsizes; s++) {
			printf("   %-8u", cfg.sizes[s]);
			for (i = 0; i < nimpls; i++)
				printf("  %6.1f [%6.1f]",
				       median_d(step_ns[s][i], cfg.rounds),
				       min_d(step_ns[s][i], cfg.rounds));
			if (i_kernel >= 0)
				printf("  %.3fx [%.3f-%.3f]", tg.step_ratio[s],
				       tg.step_q1[s], tg.step_q3[s]);
			printf("\n");
		}
		printf("\n1b. writer's own cost, one thread, nobody walking: ns per add + delete pair (median [min])\n");
		printf("   %-8s", "nodes");
		for (i = 0; i < nimpls; i++)
			printf(" %17s", impls[i]->name);
		if (i_kernel >= 0)
			printf("  %s", "ours/kernel");
		printf("\n");
		for (s = 0; s < cfg.nsizes; s++) {
			printf("   %-8u", cfg.sizes[s]);
			for (i = 0; i < nimpls; i++)
				printf("  %6.1f [%6.1f]",
				       median_d(pair_ns[s][i], cfg.rounds),
				       min_d(pair_ns[s][i], cfg.rounds));
			if (i_kernel >= 0)
				printf("  %.3fx [%.3f-%.3f]",
				       paired_ratio(pair_ns, s, i_ours, i_kernel, 0.5),
				       paired_ratio(pair_ns, s, i_ours, i_kernel, 0.25),
				       paired_ratio(pair_ns, s, i_ours, i_kernel, 0.75));
			printf("\n");
		}
	}

	if (ran(PART_TPUT)) {
		printf("\n2. walk throughput, %u nodes, %u ns work/node: Mnodes/s, all walkers together (median of %u)\n",
		       cfg.tput_size, cfg.work_ns, cfg.tput_rounds);
		printf("   %-8s", "threads");
		for (i = 0; i < nimpls; i++)
			printf(" %12s", impls[i]->name);
		printf("\n");
		for (t = 1; t <= cfg.max_threads; t++) {
			printf("   %-8u", t);
			for (i = 0; i < nimpls; i++)
				printf(" %12.2f", tput[t][i]);
			printf("\n");
		}
	}

	if (ran(PART_LAT)) {
		printf("\n3. writer latency, us: klist_add_tail and klist_del (locked lists: list_add_tail, list_del under the\n");
		printf("   write lock) while %u walker%s walk%s with %u ns work/node\n", cfg.walkers,
		       cfg.walkers == 1 ? "" : "s", cfg.walkers == 1 ? "s" : "", cfg.work_ns);
		printf("   %-8s %-12s %9s %9s %10s %9s %9s %8s %10s\n", "nodes", "impl",
		       "p50", "p99", "max", "add p99", "del p99", "samples", "walk Mn/s");
		for (s = 0; s < cfg.nsizes; s++)
			for (i = 0; i < nimpls; i++) {
				struct lat_result *r = &lat[s][i];

				printf("   %-8u %-12s %9.2f %9.2f %10.1f %9.2f %9.2f %8zu %10.2f\n",
				       cfg.sizes[s], impls[i]->name, us(pct(r->s, r->n, 50)),
				       us(pct(r->s, r->n, 99)), us(r->n ? r->s[r->n - 1] : 0),
				       us(r->add_p99), us(r->del_p99), r->n, r->walk_mnodes);
			}
	}

	if (ran(PART_REMOVE) && cfg.remove_rounds) {
		printf("\n4. klist_remove wait, us: a walker holds the node %u us; wake = return - the walker's step off it\n",
		       cfg.hold_us);
		printf("   %-12s %9s %9s %9s %9s %7s\n", "impl", "wait p50", "wake p50",
		       "wake p99", "wake max", "rounds");
		for (i = 0; i < nimpls; i++) {
			if (!rmres[i].n)
				continue;
			printf("   %-12s %9.1f %9.1f %9.1f %9.1f %7zu\n", impls[i]->name,
			       us(rmres[i].wait_p50), us(rmres[i].wake_p50),
			       us(rmres[i].wake_p99), us(rmres[i].wake_max), rmres[i].n);
		}
	}

	printf("\n5. bytes per node (sizeof what each element embeds; the iterator lives on the walker's stack)\n");
	for (i = 0; i < nimpls; i++)
		printf("   %-12s node %3zu  iterator %3zu\n", impls[i]->name,
		       impls[i]->node_bytes, impls[i]->iter_bytes);

	printf("\ntargets\n");
	if (tg.step_met || (i_kernel >= 0 && ran(PART_STEP))) {
		for (s = 0; s < cfg.nsizes; s++)
			printf("   per-step ours/kernel at %u nodes: %.3fx, quartiles %.3f-%.3f, best rounds %.3fx (target <= 1.00x)\n",
			       cfg.sizes[s], tg.step_ratio[s], tg.step_q1[s],
			       tg.step_q3[s], tg.step_min_ratio[s]);
		printf("   per-step: %s\n", tg.step_met ? "MET" : "MISSED");
	}
	if (ran(PART_LAT))
		printf("   writer p99 at %u nodes, rwlock-list/ours: %.0fx (target >= 100x): %s\n",
		       cfg.sizes[big], tg.p99_gain, tg.p99_met ? "MET" : "MISSED");
	if (i_kernel >= 0)
		printf("   node bytes ours %zu <= kernel %zu: %s\n",
		       impls[i_ours]->node_bytes, impls[i_kernel]->node_bytes,
		       tg.bytes_met ? "MET" : "MISSED");
}
