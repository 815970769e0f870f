// SPDX-License-Identifier: GPL-2.0
/*
 * klist-litmus-gen: generate LKMM litmus tests from cycles (gen.h),
 * decide each with the axiomatic checker (linux-kernel.cat in C), print
 * the count of each verdict; optionally run a sample through the
 * explorer's weak-memory mode and list where it disagrees, by shape.
 *
 *   klist-litmus-gen [--count N] [--seed S] [--dir DIR] [--explore M]
 *                    [--explore-ms MS] [--check] [--graph] [-v]
 *
 * --check: fail (exit 1) unless two properties of the LKMM hold on
 * every test they cover: a cycle whose every internal edge is smp_mb()
 * is Never (strong fences restore sequential consistency), and a cycle
 * of plain po between READ_ONCE()/WRITE_ONCE() only is Sometimes (no
 * ordering at all).  Exit 2 on a bad option.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen.h"
#include "../litmus.h"

#define MAX_SHAPES	512

struct shape_count {
	char shape[160];
	char cat[32], explore[32];
	unsigned int n;
	char example[32];
};

static struct shape_count shapes[MAX_SHAPES];
static int nshapes;

static void count_shape(const char *shape, const char *cat, const char *ex,
			const char *name)
{
	int i;

	for (i = 0; i < nshapes; i++)
		if (!strcmp(shapes[i].shape, shape) && !strcmp(shapes[i].cat, cat) &&
		    !strcmp(shapes[i].explore, ex))
			break;
	if (i == nshapes) {
		if (nshapes == MAX_SHAPES)
			return;
		nshapes++;
		snprintf(shapes[i].shape, sizeof(shapes[i].shape), "%s", shape);
		snprintf(shapes[i].cat, sizeof(shapes[i].cat), "%s", cat);
		snprintf(shapes[i].explore, sizeof(shapes[i].explore), "%s", ex);
		snprintf(shapes[i].example, sizeof(shapes[i].example), "%.31s", name);
	}
	shapes[i].n++;
}

static bool all_edges(const struct gen_cycle *c, enum gen_iedge e, bool once)
{
	for (int i = 0; i < c->nthreads; i++) {
		const struct gen_thread *t = &c->t[i];

		if (t->nev == 2 && t->edge != e)
			return false;
		for (int k = 0; k < t->nev; k++)
			if (once && t->ann[k] != GEN_ONCE)
				return false;
	}
	return true;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: klist-litmus-gen [--count N] [--seed S] [--dir DIR] [--explore M]\n"
		"                        [--explore-ms MS] [--check] [--graph] [-v]\n"
		"  --count N       generate N distinct tests (default 3000)\n"
		"  --seed S        which ones (default 1): the same on every machine\n"
		"  --dir DIR       write them there (default litmus-gen), one file each\n"
		"  --explore M     run the first M through the explorer's weak-memory\n"
		"                  mode (DPOR) too and list disagreements by shape\n"
		"  --explore-ms MS the explorer's budget per test (default 2000)\n"
		"  --check         exit 1 unless every all-smp_mb() cycle is Never and\n"
		"                  every all-po READ_ONCE/WRITE_ONCE cycle Sometimes\n"
		"  --graph         run each through the graph engine too: exit 1 unless it\n"
		"                  finds the checker's consistent executions (load\n"
		"                  buffering too), once each, exploring at most twice them\n"
		"  -v              one line per test\n");
}

static bool number(const char *s, unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && *s && !*end;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "count", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "dir", required_argument, NULL, 'd' },
		{ "explore", required_argument, NULL, 'x' },
		{ "explore-ms", required_argument, NULL, 'm' },
		{ "check", no_argument, NULL, 'c' },
		{ "graph", no_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long count = 3000, seed = 1, explore = 0, explore_ms = 2000;
	unsigned long long v, made = 0, tried = 0, verdicts[4] = { 0 };
	unsigned long long agree = 0, disagree = 0, ex_undecided = 0;
	unsigned long long execs = 0, consistent = 0, bad = 0;
	double secs = 0, max_secs = 0;
	const char *dir = "litmus-gen";
	bool check = false, verbose = false, graph = false;
	unsigned long long g_exact = 0, g_lb = 0, g_wrong = 0, g_over = 0, g_unsup = 0;
	unsigned long long g_explored = 0;
	double g_secs = 0, g_max = 0;
	char (*seen)[512];
	int c;

	while ((c = getopt_long(argc, argv, "hv", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
		case 's':
		case 'x':
		case 'm':
			if (!number(optarg, &v) || (c == 'n' && (v == 0 || v > 100000))) {
				fprintf(stderr, "klist-litmus-gen: --%s takes a number%s, not '%s'\n",
					c == 'n' ? "count" : c == 's' ? "seed" :
					c == 'x' ? "explore" : "explore-ms",
					c == 'n' ? " from 1 to 100000" : "", optarg);
				return 2;
			}
			if (c == 'n')
				count = v;
			else if (c == 's')
				seed = v;
			else if (c == 'x')
				explore = v;
			else
				explore_ms = v;
			break;
		case 'd':
			dir = optarg;
			break;
		case 'c':
			check = true;
			break;
		case 'g':
			graph = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "klist-litmus-gen: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	if (mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "klist-litmus-gen: cannot make %s: %s\n", dir, strerror(errno));
		return 2;
	}
	seen = calloc(count, sizeof(*seen));
	if (!seen) {
		perror("klist-litmus-gen");
		return 2;
	}
	while (made < count) {
		struct gen_cycle cy;
		struct lit_cat_result r;
		struct lit_prog *p;
		char name[32], path[4096], err[512], shape[160];
		const char *verdict;
		bool dup = false;
		FILE *f;

		if (tried > count * 1000) {
			fprintf(stderr, "klist-litmus-gen: only %llu distinct tests\n", made);
			break;
		}
		gen_nth(seed, tried++, &cy);
		if (!gen_valid(&cy))
			continue;
		gen_cycle_name(&cy, seen[made], sizeof(seen[made]));
		for (unsigned long long i = 0; i < made && !dup; i++)
			dup = !strcmp(seen[i], seen[made]);
		if (dup)
			continue;
		snprintf(name, sizeof(name), "gen-%05llu", made);
		snprintf(path, sizeof(path), "%s/%s.litmus", dir, name);
		f = fopen(path, "w");
		if (!f) {
			fprintf(stderr, "klist-litmus-gen: cannot write %s\n", path);
			return 2;
		}
		/* every other test leaves its registers undeclared, as diy7 */
		gen_write(&cy, name, made % 2, f);
		fclose(f);
		made++;

		p = lit_parse(path, err, sizeof(err));
		if (!p) {
			fprintf(stderr, "klist-litmus-gen: %s\n", err);
			return 1;
		}
		gen_shape(&cy, shape, sizeof(shape));
		if (p->unsupported[0] || lit_cat_check(p, &r)) {
			verdict = "Unsupported";
			verdicts[3]++;
		} else {
			verdict = lit_cat_verdict(&r);
			verdicts[verdict[0] == 'A' ? 0 : verdict[0] == 'S' ? 1 : 2]++;
			execs += r.executions;
			consistent += r.consistent;
			secs += r.seconds;
			if (r.seconds > max_secs)
				max_secs = r.seconds;
		}
		if (verbose)
			printf("%s %s (%s)\n", name, verdict, seen[made - 1]);
		if (check && ((all_edges(&cy, GEN_MB, false) && strcmp(verdict, "Never")) ||
			      (all_edges(&cy, GEN_PO, true) && strcmp(verdict, "Sometimes")))) {
			printf("%s %s: the LKMM says otherwise (%s)\n", name, verdict,
			       seen[made - 1]);
			bad++;
		}
		if (graph && !p->unsupported[0] && verdict[0] != 'U') {
			static struct lit_graph_result gr;
			const char *gv;

			if (lit_graph_check(p, false, &gr)) {
				g_unsup++;
				printf("%s graph engine: Unsupported %s\n", name, gr.error);
			} else {
				gv = gr.yes && gr.no ? "Sometimes" : gr.yes ? "Always" : "Never";
				g_explored += gr.explored;
				g_secs += gr.seconds;
				if (gr.seconds > g_max)
					g_max = gr.seconds;
				if (gr.explored > 2 * (r.consistent ? r.consistent : 1))
					g_over++;
				if (gr.duplicates || gr.consistent != r.consistent || strcmp(gv, verdict)) {
					g_wrong++;
					printf("%s graph engine WRONG: %s, %llu executions (%llu twice); the checker: %s, %llu (%llu with a po|rf cycle)\n",
					       name, gv, gr.consistent, gr.duplicates, verdict,
					       r.consistent, r.consistent - r.consistent_porf);
				} else if (r.consistent != r.consistent_porf) {
					g_lb++;
					if (verbose)
						printf("%s graph engine %s, %llu executions with a po|rf cycle (%s)\n",
						       name, gv, r.consistent - r.consistent_porf, shape);
				} else {
					g_exact++;
				}
			}
		}
		if (made <= explore) {
			struct lit_opts o = { .explore = true, .wmm = true, .dpor = true,
					      .quiet = true, .max_ms = explore_ms };
			char ev[32] = "";

			o.verdict_out = ev;
			lit_run(p, &o);
			if (!strcmp(ev, "Undecided")) {
				ex_undecided++;
			} else if (!strcmp(ev, verdict)) {
				agree++;
			} else {
				disagree++;
				count_shape(shape, verdict, ev, name);
			}
		}
		lit_free(p);
	}
	printf("klist-litmus-gen: %llu tests (seed %llu) in %s: Always %llu, Sometimes %llu, Never %llu, Unsupported %llu\n",
	       made, seed, dir, verdicts[0], verdicts[1], verdicts[2], verdicts[3]);
	printf("klist-litmus-gen: the checker: %llu candidate executions, %llu consistent; %.3f s in all, %.4f s the slowest test\n",
	       execs, consistent, secs, max_secs);
	if (explore) {
		printf("klist-litmus-gen: the explorer (wmm, DPOR, %llu ms each) on the first %llu: %llu agree, %llu disagree, %llu undecided\n",
		       explore_ms, explore < made ? explore : made, agree, disagree,
		       ex_undecided);
		for (int i = 0; i < nshapes; i++)
			printf("  %4u  cat %-9s explorer %-9s %s (e.g. %s)\n", shapes[i].n,
			       shapes[i].cat, shapes[i].explore, shapes[i].shape,
			       shapes[i].example);
	}
	if (graph)
		printf("klist-litmus-gen: the graph engine: %llu agree (%llu of them with load buffering), %llu wrong, %llu over twice the checker's executions, %llu unsupported; %llu graphs explored, %.3f s in all, %.4f s the slowest\n",
		       g_exact + g_lb, g_lb, g_wrong, g_over, g_unsup, g_explored, g_secs, g_max);
	if (check)
		printf("klist-litmus-gen: --check: %llu violations\n", bad);
	free(seen);
	return bad || g_wrong || g_over || g_unsup ? 1 : 0;
}
