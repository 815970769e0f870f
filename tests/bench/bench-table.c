// SPDX-License-Identifier: GPL-2.0
/*
 * The table on stdout: the configuration, one section per part that
 * ran (lists as rows: seven do not fit side by side), the per-step
 * ratios, memory per node and per list, and the targets.
 */
#include <stdio.h>
#include <unistd.h>

#include "bench-driver.h"

/* The list sizes: @first before the first, @sep between the others. */
void print_sizes(FILE *f, const char *first, const char *sep)
{
	int s;

	for (s = 0; s < cfg.nsizes; s++)
		fprintf(f, "%s%u", s ? sep : first, cfg.sizes[s]);
}

/* Printed before the run and again at the head of the table. */
void print_config(FILE *f, const char *pre)
{
	fprintf(f, "%sseed %llu, build %s, %ld online cpus\n", pre, cfg.seed,
		BENCH_BUILD_INFO, sysconf(_SC_NPROCESSORS_ONLN));
	fprintf(f, "%ssizes", pre);
	print_sizes(f, " ", ",");
	fprintf(f, "; per-step %u rounds x %u us; throughput %u nodes, 1..%u threads, %u x %u ms\n",
		cfg.rounds, cfg.step_us, cfg.tput_size, cfg.max_threads,
		cfg.tput_rounds, cfg.tput_ms);
	fprintf(f, "%swork %u ns/node (%u iterations, %.0f ns measured); writer: %u walkers, %u ms, pause %u us mean\n",
		pre, cfg.work_ns, work_iters, work_ns_measured, cfg.walkers,
		cfg.lat_ms, cfg.gap_us);
	fprintf(f, "%swriter latency in %u interleaved chunks; remove wait: %u rounds in chunks of %d, walker holds the node %u us\n",
		pre, cfg.chunks, cfg.remove_rounds, RM_CHUNK, cfg.hold_us);
}

/* median [min] of @v over the rounds, as the per-step tables show it */
static void print_med_min(const double *v)
{
	printf("  %7.1f [%7.1f]", median_d(v, cfg.rounds), min_d(v, cfg.rounds));
}

/* One row per list: median [min] of @v at each size. */
static void print_impl_rows(double (*v)[MAX_IMPLS][MAX_STEP_ROUNDS])
{
	int s, i;

	for (i = 0; i < nimpls; i++) {
		printf("   %-14s", impls[i]->name);
		for (s = 0; s < cfg.nsizes; s++)
			print_med_min(v[s][i]);
		printf("\n");
	}
}

static void print_sizes_header(const char *first)
{
	int s;

	printf("   %-14s", first);
	for (s = 0; s < cfg.nsizes; s++)
		printf("  %11u nodes", cfg.sizes[s]);
	printf("\n");
}

static void print_step(void)
{
	int s, k;

	printf("\n1. per-step cost, one thread, no work: ns per klist_next (locked lists: per node, lock amortised)\n");
	printf("   median of %u interleaved rounds of %u us [min]\n",
	       cfg.rounds, cfg.step_us);
	print_sizes_header("impl");
	print_impl_rows(step_ns);

	printf("\n1r. per-step ratios: median of the %u paired per-round ratios [quartiles], best rounds' ratio\n",
	       cfg.rounds);
	printf("   %-26s %6s %8s %15s %8s  %s\n", "ratio", "nodes", "median",
	       "[q1-q3]", "best", "target");
	for (k = 0; k < NR_STEP_RATIOS; k++) {
		const struct step_ratio *r = &tg.step[k];

		for (s = 0; r->have && s < cfg.nsizes; s++) {
			printf("   %-26s %6u %7.3fx [%5.3f-%5.3f] %7.3fx", r->label,
			       cfg.sizes[s], r->med[s], r->q1[s], r->q3[s],
			       r->best[s]);
			if (r->target > 0)
				printf("  <= %.2fx %s", r->target,
				       r->med[s] <= r->target ? "met" : "missed");
			printf("\n");
		}
	}

	printf("\n1b. writer's own cost, one thread, nobody walking: ns per add + delete pair (median [min])\n");
	print_sizes_header("impl");
	print_impl_rows(pair_ns);
	for (k = SR_OURS_KERNEL; k <= SR_OURS_KERNEL_FAST; k++) {
		const struct step_ratio *r = &tg.step[k];

		for (s = 0; r->have && s < cfg.nsizes; s++)
			printf("   %-26s %6u %7.3fx [%5.3f-%5.3f]\n", r->label,
			       cfg.sizes[s], pair_ratio(s, r->a, r->b, 0.5),
			       pair_ratio(s, r->a, r->b, 0.25),
			       pair_ratio(s, r->a, r->b, 0.75));
	}
}

static void print_tput(void)
{
	unsigned int t;
	int i;

	printf("\n2. walk throughput, %u nodes, %u ns work/node: Mnodes/s, all walkers together (median of %u)\n",
	       cfg.tput_size, cfg.work_ns, cfg.tput_rounds);
	printf("   %-14s", "walkers");
	for (t = 1; t <= cfg.max_threads; t++)
		printf(" %8u", t);
	printf("\n");
	for (i = 0; i < nimpls; i++) {
		printf("   %-14s", impls[i]->name);
		for (t = 1; t <= cfg.max_threads; t++)
			printf(" %8.2f", tput[t][i]);
		printf("\n");
	}
}

static void print_lat(void)
{
	int s, i;

	printf("\n3. writer latency, us: klist_add_tail and klist_del (locked lists: list_add_tail, list_del under the\n");
	printf("   write lock) while %u walker%s walk%s with %u ns work/node; rw/this: rwlock-list p99 / this p99\n",
	       cfg.walkers, cfg.walkers == 1 ? "" : "s",
	       cfg.walkers == 1 ? "s" : "", cfg.work_ns);
	printf("   %-7s %-14s %8s %9s %10s %9s %9s %8s %9s %8s\n", "nodes", "impl",
	       "p50", "p99", "max", "add p99", "del p99", "samples",
	       "walk Mn/s", "rw/this");
	for (s = 0; s < cfg.nsizes; s++)
		for (i = 0; i < nimpls; i++) {
			struct lat_result *r = &lat[s][i];
			uint64_t p99 = pct(r->s, r->n, 99);
			uint64_t rw = i_rwlock >= 0 ?
				pct(lat[s][i_rwlock].s, lat[s][i_rwlock].n, 99) : 0;

			printf("   %-7u %-14s %8.2f %9.2f %10.1f %9.2f %9.2f %8zu %9.2f %7.0fx\n",
			       cfg.sizes[s], impls[i]->name, us(pct(r->s, r->n, 50)),
			       us(p99), us(r->n ? r->s[r->n - 1] : 0),
			       us(r->add_p99), us(r->del_p99), r->n,
			       r->walk_mnodes, p99 ? (double)rw / p99 : 0);
		}
}

static void print_rm(void)
{
	int i;

	printf("\n4. synchronous remove, us: a walker holds the node %u us (locked lists: the lock; rculist: a read-side\n"
	       "   section) while klist_remove() (locked lists: the write lock; rculist: synchronize_rcu()) waits;\n"
	       "   wake = return - the walker's step off it\n", cfg.hold_us);
	printf("   %-14s %9s %9s %9s %9s %7s\n", "impl", "wait p50", "wake p50",
	       "wake p99", "wake max", "rounds");
	for (i = 0; i < nimpls; i++) {
		if (!rmres[i].n)
			continue;
		printf("   %-14s %9.1f %9.1f %9.1f %9.1f %7zu\n", impls[i]->name,
		       us(rmres[i].wait_p50), us(rmres[i].wake_p50),
		       us(rmres[i].wake_p99), us(rmres[i].wake_max), rmres[i].n);
	}
}

static void print_sleep(void)
{
	int i;

	printf("\n6. writer beside a walker asleep on a node, us: the walker stands on the first node and sleeps %u us\n",
	       cfg.sleep_us);
	printf("   there, again and again, while the writer adds other nodes and removes them synchronously (klist_remove();\n"
	       "   locked lists: list_del under the write lock; rculist: list_del_rcu + synchronize_rcu), %u nodes, %u ms a list\n",
	       cfg.sizes[0], cfg.sleep_ms);
	printf("   %-14s %8s %9s %10s %9s %9s %10s %8s %7s\n", "impl", "add p50",
	       "add p99", "add max", "rm p50", "rm p99", "rm max", "samples", "sleeps");
	for (i = 0; i < nimpls; i++) {
		const struct sleep_result *r = &sleepres[i];

		if (!r->n || !r->nrm)
			continue;
		printf("   %-14s %8.2f %9.2f %10.1f %9.2f %9.2f %10.1f %8zu %7lu\n",
		       impls[i]->name, us(pct(r->s, r->n, 50)), us(pct(r->s, r->n, 99)),
		       us(r->s[r->n - 1]), us(pct(r->rm, r->nrm, 50)),
		       us(pct(r->rm, r->nrm, 99)), us(r->rm[r->nrm - 1]),
		       r->n + r->nrm, r->holds);
	}
}

/* A summary line's figure for list @i: "name value" or nothing. */
static void sum_item(int i, const char *fmt, double v, int *first)
{
	if (i < 0)
		return;
	printf("%s%s ", *first ? "" : ", ", impls[i]->name);
	printf(fmt, v);
	*first = 0;
}

/*
 * What a klist walk costs, against the lists a userspace programmer
 * would pick (a mutex list, liburcu's rculist), and what it buys: a
 * writer that waits for no walk, a walker that may sleep on a node,
 * a remove that returns when no walker holds the node.
 */
static void print_summary(void)
{
	const int who[] = { i_ours_fast, i_mutex, i_rcu, i_rwlock, i_lower };
	int s, k, first;
	size_t w;

	printf("\nsummary: what a klist walk costs and what it buys (this run; ratios paired per round)\n");
	if (ran(PART_STEP)) {
		for (s = 0; s < cfg.nsizes; s++) {
			printf("   cost, ns a step at %u nodes, no work: ", cfg.sizes[s]);
			first = 1;
			for (w = 0; w < sizeof(who) / sizeof(who[0]); w++)
				sum_item(who[w], "%.1f", who[w] >= 0 ?
					 median_d(step_ns[s][who[w]], cfg.rounds) : 0, &first);
			printf("\n");
		}
		for (k = 0; k < NR_STEP_RATIOS; k++) {
			const struct step_ratio *r = &tg.step[k];

			if (!r->have || (k != SR_FAST_MUTEX && k != SR_FAST_RCU &&
					 k != SR_FAST_LOWER))
				continue;
			printf("   cost, %s a step:", r->label);
			for (s = 0; s < cfg.nsizes; s++)
				printf("%s %.2fx [%.2f-%.2f] at %u", s ? "," : "",
				       r->med[s], r->q1[s], r->q3[s], cfg.sizes[s]);
			printf("\n");
		}
	}
	if (ran(PART_LAT)) {
		printf("   buys: writer p99 at %u nodes under %u walker%s with work, us: ", cfg.sizes[big],
		       cfg.walkers, cfg.walkers == 1 ? "" : "s");
		first = 1;
		for (w = 0; w < sizeof(who) / sizeof(who[0]); w++)
			if (who[w] >= 0)
				sum_item(who[w], "%.1f", us(pct(lat[big][who[w]].s,
							    lat[big][who[w]].n, 99)), &first);
		printf("\n");
	}
	if (ran(PART_SLEEP)) {
		printf("   buys: beside a walker asleep %u us on one node, add p99 / synchronous remove of another node p50, us: ",
		       cfg.sleep_us);
		first = 1;
		for (w = 0; w < sizeof(who) / sizeof(who[0]); w++) {
			const struct sleep_result *r = who[w] >= 0 ? &sleepres[who[w]] : NULL;

			if (!r || !r->n || !r->nrm)
				continue;
			printf("%s%s %.1f / %.1f", first ? "" : ", ", impls[who[w]]->name,
			       us(pct(r->s, r->n, 99)), us(pct(r->rm, r->nrm, 50)));
			first = 0;
		}
		printf("\n");
	}
	if (ran(PART_REMOVE) && cfg.remove_rounds) {
		printf("   buys: synchronous remove, walker off the node -> remove returns, p50 us: ");
		first = 1;
		for (w = 0; w < sizeof(who) / sizeof(who[0]); w++)
			if (who[w] >= 0 && rmres[who[w]].n)
				sum_item(who[w], "%.1f", us(rmres[who[w]].wake_p50), &first);
		printf("\n");
	}
}

static void print_bytes(void)
{
	int i;

	printf("\n7. memory: bytes per node (sizeof what each element embeds), per walker (the iterator, on its\n");
	printf("   stack) and per list (sizeof the head and its lock; none allocates more per list)\n");
	printf("   %-14s %6s %9s %6s\n", "impl", "node", "iterator", "list");
	for (i = 0; i < nimpls; i++)
		printf("   %-14s %6zu %9zu %6zu\n", impls[i]->name,
		       impls[i]->node_bytes, impls[i]->iter_bytes,
		       impls[i]->list_bytes);
}

static const char *verdict(bool met)
{
	return met ? "MET" : "MISSED";
}

static void print_targets(void)
{
	int s, k, i;

	printf("\ntargets (reported, not asserted)\n");
	for (k = 0; k < NR_STEP_RATIOS; k++) {
		const struct step_ratio *r = &tg.step[k];

		if (!r->have || r->target <= 0)
			continue;
		for (s = 0; s < cfg.nsizes; s++)
			printf("   per-step %s at %u nodes: %.3fx, quartiles %.3f-%.3f, best rounds %.3fx (target <= %.2fx)\n",
			       r->label, cfg.sizes[s], r->med[s], r->q1[s],
			       r->q3[s], r->best[s], r->target);
		printf("   per-step %s: %s%s\n", r->label, verdict(r->met),
		       r->within_noise ?
		       " (within noise: the target is inside the quartiles at every size)" : "");
	}
	for (i = 0; ran(PART_LAT) && i < nimpls; i++)
		if (tg.p99_judged[i])
			printf("   writer p99 at %u nodes, rwlock-list/%s: %.0fx (target >= 100x): %s\n",
			       cfg.sizes[big], impls[i]->name, tg.p99_gain[i],
			       verdict(tg.p99_met[i]));
	if (i_ours >= 0 && i_kernel >= 0)
		printf("   node bytes, checked shim: ours %zu <= kernel %zu: %s\n",
		       impls[i_ours]->node_bytes, impls[i_kernel]->node_bytes,
		       verdict(tg.bytes_met));
	if (i_ours_fast >= 0 && i_kernel_fast >= 0)
		printf("   node bytes, fast runtime: ours %zu <= kernel %zu: %s\n",
		       impls[i_ours_fast]->node_bytes,
		       impls[i_kernel_fast]->node_bytes,
		       verdict(tg.bytes_fast_met));
}

void print_table(void)
{
	int i;

	printf("\nklist-bench\n");
	print_config(stdout, "  ");
	for (i = 0; i < nimpls; i++)
		printf("  %-14s %s\n", impls[i]->name, impls[i]->what);
	if (ran(PART_STEP))
		print_step();
	if (ran(PART_TPUT))
		print_tput();
	if (ran(PART_LAT))
		print_lat();
	if (ran(PART_REMOVE) && cfg.remove_rounds)
		print_rm();
	if (ran(PART_SLEEP) && cfg.sleep_ms)
		print_sleep();
	print_bytes();
	print_targets();
	print_summary();
}
