// SPDX-License-Identifier: GPL-2.0
/*
 * bench.json in --out-dir: every number of the table, plus p90/p99.9
 * and quartiles, and every ratio with its target and verdict.
 */
#include <stdio.h>
#include <unistd.h>

#include "bench-driver.h"

static const char *jbool(bool b)
{
	return b ? "true" : "false";
}

/* Every ratio per size, and each target's verdict. */
static void write_targets(FILE *f)
{
	int s, k, i, n = 0;

	fprintf(f, ",\n  \"step_ratios\": {");
	for (k = 0; k < NR_STEP_RATIOS; k++) {
		const struct step_ratio *r = &tg.step[k];

		if (!r->have)
			continue;
		fprintf(f, "%s\n    \"%s\": {\"a\": \"%s\", \"b\": \"%s\", ",
			n++ ? "," : "", r->key, impls[r->a]->name,
			impls[r->b]->name);
		if (r->target > 0)
			fprintf(f, "\"target_max\": %.2f, \"met\": %s, \"within_noise\": %s, ",
				r->target, jbool(r->met), jbool(r->within_noise));
		fprintf(f, "\"per_size\": {");
		for (s = 0; s < cfg.nsizes; s++)
			fprintf(f, "%s\"%u\": {\"median\": %.4f, \"q1\": %.4f, \"q3\": %.4f, \"best_rounds\": %.4f}",
				s ? ", " : "", cfg.sizes[s], r->med[s], r->q1[s],
				r->q3[s], r->best[s]);
		fprintf(f, "}}");
	}
	fprintf(f, "\n  }");

	if (ran(PART_LAT) && i_rwlock >= 0) {
		fprintf(f, ",\n  \"writer_p99_rwlock_over\": {\"nodes\": %u",
			cfg.sizes[big]);
		for (i = 0; i < nimpls; i++) {
			fprintf(f, ", \"%s\": {\"ratio\": %.1f", impls[i]->name,
				tg.p99_gain[i]);
			if (tg.p99_judged[i])
				fprintf(f, ", \"target_min\": 100, \"met\": %s",
					jbool(tg.p99_met[i]));
			fprintf(f, "}");
		}
		fprintf(f, "}");
	}
	fprintf(f, ",\n  \"node_bytes_met\": {\"checked\": %s, \"fast\": %s}",
		jbool(tg.bytes_met), jbool(tg.bytes_fast_met));
}

/* "name": {"median": M, "min": M of implementation @i, left open. */
static void json_med_min(FILE *f, int i, const double *v)
{
	fprintf(f, "%s\"%s\": {\"median\": %.2f, \"min\": %.2f",
		i ? ", " : "", impls[i]->name, median_d(v, cfg.rounds),
		min_d(v, cfg.rounds));
}

/* Sections that did not run are left out; each one starts with a comma. */
void write_json(void)
{
	FILE *f = out_file("bench.json");
	int s, i, k;
	unsigned int t;

	fprintf(f, "{\n  \"config\": {\"seed\": %llu, \"build\": \"%s\", \"cpus\": %ld, \"sizes\": [",
		cfg.seed, BENCH_BUILD_INFO, sysconf(_SC_NPROCESSORS_ONLN));
	print_sizes(f, "", ", ");
	fprintf(f, "], \"rounds\": %u, \"step_us\": %u, \"max_threads\": %u, \"tput_size\": %u, \"tput_ms\": %u, \"tput_rounds\": %u,\n",
		cfg.rounds, cfg.step_us, cfg.max_threads, cfg.tput_size,
		cfg.tput_ms, cfg.tput_rounds);
	fprintf(f, "    \"walkers\": %u, \"lat_ms\": %u, \"gap_us\": %u, \"work_ns\": %u, \"work_iters\": %u, \"work_ns_measured\": %.1f, \"remove_rounds\": %u, \"hold_us\": %u, \"chunks\": %u},\n",
		cfg.walkers, cfg.lat_ms, cfg.gap_us, cfg.work_ns, work_iters,
		work_ns_measured, cfg.remove_rounds, cfg.hold_us, cfg.chunks);

	fprintf(f, "  \"implementations\": [");
	for (i = 0; i < nimpls; i++)
		fprintf(f, "%s\n    {\"name\": \"%s\", \"what\": \"%s\", \"node_bytes\": %zu, \"iter_bytes\": %zu, \"list_bytes\": %zu}",
			i ? "," : "", impls[i]->name, impls[i]->what,
			impls[i]->node_bytes, impls[i]->iter_bytes,
			impls[i]->list_bytes);
	fprintf(f, "\n  ]");

	if (ran(PART_STEP)) {
		fprintf(f, ",\n  \"step_ns\": {");
		for (s = 0; s < cfg.nsizes; s++) {
			fprintf(f, "%s\n    \"%u\": {", s ? "," : "", cfg.sizes[s]);
			for (i = 0; i < nimpls; i++) {
				json_med_min(f, i, step_ns[s][i]);
				fprintf(f, ", \"q1\": %.2f, \"q3\": %.2f}",
					quantile_d(step_ns[s][i], cfg.rounds, 0.25),
					quantile_d(step_ns[s][i], cfg.rounds, 0.75));
			}
			fprintf(f, "}");
		}
		fprintf(f, "\n  },\n  \"add_del_pair_ns\": {");
		for (s = 0; s < cfg.nsizes; s++) {
			fprintf(f, "%s\n    \"%u\": {", s ? "," : "", cfg.sizes[s]);
			for (i = 0; i < nimpls; i++) {
				json_med_min(f, i, pair_ns[s][i]);
				fprintf(f, "}");
			}
			for (k = SR_OURS_KERNEL; k <= SR_OURS_KERNEL_FAST; k++)
				if (tg.step[k].have)
					fprintf(f, ", \"%s\": %.4f", tg.step[k].key,
						pair_ratio(s, tg.step[k].a,
							   tg.step[k].b, 0.5));
			fprintf(f, "}");
		}
		fprintf(f, "\n  }");
	}

	if (ran(PART_TPUT)) {
		fprintf(f, ",\n  \"throughput_mnodes_per_s\": {");
		for (i = 0; i < nimpls; i++) {
			fprintf(f, "%s\n    \"%s\": [", i ? "," : "", impls[i]->name);
			for (t = 1; t <= cfg.max_threads; t++)
				fprintf(f, "%s%.3f", t > 1 ? ", " : "", tput[t][i]);
			fprintf(f, "]");
		}
		fprintf(f, "\n  }");
	}

	if (ran(PART_LAT)) {
		fprintf(f, ",\n  \"writer_latency_us\": {");
		for (s = 0; s < cfg.nsizes; s++) {
			fprintf(f, "%s\n    \"%u\": {", s ? "," : "", cfg.sizes[s]);
			for (i = 0; i < nimpls; i++) {
				struct lat_result *r = &lat[s][i];

				fprintf(f, "%s\n      \"%s\": {\"p50\": %.3f, \"p90\": %.3f, \"p99\": %.3f, \"p999\": %.3f, \"max\": %.3f, \"add_p99\": %.3f, \"del_p99\": %.3f, \"samples\": %zu, \"walk_mnodes_per_s\": %.3f}",
					i ? "," : "", impls[i]->name,
					us(pct(r->s, r->n, 50)), us(pct(r->s, r->n, 90)),
					us(pct(r->s, r->n, 99)), us(pct(r->s, r->n, 99.9)),
					us(r->n ? r->s[r->n - 1] : 0), us(r->add_p99),
					us(r->del_p99), r->n, r->walk_mnodes);
			}
			fprintf(f, "}");
		}
		fprintf(f, "\n  }");
	}

	if (ran(PART_REMOVE) && cfg.remove_rounds) {
		fprintf(f, ",\n  \"remove_wait_us\": {");
		for (i = 0, t = 0; i < nimpls; i++) {
			if (!rmres[i].n)
				continue;
			fprintf(f, "%s\n    \"%s\": {\"wait_p50\": %.2f, \"wake_p50\": %.2f, \"wake_p99\": %.2f, \"wake_max\": %.2f, \"rounds\": %zu}",
				t++ ? "," : "", impls[i]->name, us(rmres[i].wait_p50),
				us(rmres[i].wake_p50), us(rmres[i].wake_p99),
				us(rmres[i].wake_max), rmres[i].n);
		}
		fprintf(f, "\n  }");
	}

	write_targets(f);
	fprintf(f, "\n}\n");
	fclose(f);
}
