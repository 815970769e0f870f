// SPDX-License-Identifier: GPL-2.0
/*
 * klist-litmus: judge herd7 C litmus tests under the Linux-kernel memory
 * model: by default every candidate execution checked against
 * linux-kernel.cat transcribed in C (cat/, litmus-cat.c); with
 * --engine explore, under the explorer's weak-memory model instead;
 * with --engine graph, by the execution-graph explorer whose model is
 * the same checker, or sc (litmus-graph.c).
 *
 *   klist-litmus [--engine cat|explore|graph] [--model wmm|sc]
 *                [--search dpor|dfs] [--expect] [--witness] [--diff]
 *                [--compare] [-v] FILE...
 *
 * One line per file: its name, then Always, Sometimes or Never (how
 * many of the executions the model allows satisfy the condition, as
 * herd7 says it), DATARACE when the cat's data-race flag is raised, the
 * number of consistent executions; or "Unsupported WHAT".  --expect compares the verdict
 * with the file's "Result:" line and exits 1 on a mismatch or an
 * unsupported test.  --diff checks the search instead: DPOR and the
 * unbounded depth-first search must reach the same final states.
 * Exit 0 when every file was judged (or marked unsupported), 1 when a
 * run failed, (--expect) a verdict differs or (--diff) the two searches
 * do, (--compare) the graph engine's executions are not the checker's
 * consistent ones, each once, 2 on bad arguments or a file it
 * cannot parse (the line is named).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: klist-litmus [--engine cat|explore|graph] [--model wmm|sc]\n"
		"                    [--search dpor|dfs] [--expect] [--witness] [--diff]\n"
		"                    [--compare] [-v] FILE...\n"
		"  --engine E  cat (default: every candidate execution checked against\n"
		"              linux-kernel.cat), explore (the explorer's model) or graph\n"
		"              (execution graphs, each consistent one once, judged by the\n"
		"              same checker: no load buffering yet)\n"
		"  --model M   wmm (default: the explorer's weak memory; with --engine\n"
		"              graph the LKMM) or sc; implies --engine explore unless\n"
		"              graph is asked for, as --search, --witness, --diff do\n"
		"  --compare   (graph) run the checker too: exit 1 unless the engine found\n"
		"              its consistent executions (load buffering too), each\n"
		"              once, and explored at most twice as many\n"
		"  --search graph (#38) the explorer's runs driven by the graph engine\n"
		"              under sc; --compare: against --engine graph --model sc\n"
		"  --search S  dpor (default: every trace, a load's choice of store a\n"
		"              branch) or dfs (every interleaving, no bound)\n"
		"  --expect    exit 1 unless each verdict is the file's Result: line\n"
		"  -v          the time, and (cat) the candidates each axiom rejected\n"
		"  --witness   then the interleaving of one execution satisfying the\n"
		"              condition (each load with the value and the store it read)\n"
		"  --diff      instead of a verdict: run both searches and exit 1 unless\n"
		"              they reach the same final states (registers and variables)\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "engine", required_argument, NULL, 'E' },
		{ "model", required_argument, NULL, 'm' },
		{ "search", required_argument, NULL, 's' },
		{ "diff", no_argument, NULL, 'd' },
		{ "expect", no_argument, NULL, 'e' },
		{ "witness", no_argument, NULL, 'w' },
		{ "compare", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct lit_opts o = { .wmm = true, .dpor = true };
	bool witness = false, diff = false, engine_cat = false, explore_only = false;
	int c, status = 0;

	while ((c = getopt_long(argc, argv, "hvm:", longopts, NULL)) != -1) {
		switch (c) {
		case 'E':
			if (!strcmp(optarg, "explore")) {
				o.explore = true;
			} else if (!strcmp(optarg, "cat")) {
				engine_cat = true;
			} else if (!strcmp(optarg, "graph")) {
				o.graph = true;
			} else {
				fprintf(stderr, "klist-litmus: --engine takes cat, explore or graph, not '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'm':
			o.explore = true;
			if (!strcmp(optarg, "sc")) {
				o.wmm = false;
			} else if (strcmp(optarg, "wmm")) {
				fprintf(stderr, "klist-litmus: --model takes wmm or sc, not '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 's':
			o.explore = true;
			explore_only = true;
			if (!strcmp(optarg, "dfs")) {
				o.dpor = false;
			} else if (!strcmp(optarg, "graph")) {	/* #38 native */
				o.native_graph = true;
			} else if (strcmp(optarg, "dpor")) {
				fprintf(stderr, "klist-litmus: --search takes dpor or dfs, not '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'd':
			o.explore = true;
			explore_only = true;
			diff = true;
			break;
		case 'c':
			o.compare = true;
			break;
		case 'e':
			o.expect = true;
			break;
		case 'w':
			o.explore = true;
			explore_only = true;
			witness = true;
			break;
		case 'v':
			o.verbose = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind == argc) {
		usage(stderr);
		return 2;
	}
	if (o.graph) {
		/* --model picks the graph engine's model */
		if (engine_cat || explore_only) {
			fprintf(stderr, "klist-litmus: --search, --witness, --diff and --engine cat are not the graph engine's\n");
			return 2;
		}
		o.explore = false;
		if (o.compare && !o.wmm) {
			fprintf(stderr, "klist-litmus: --compare checks the graph engine against the LKMM checker: not with --model sc\n");
			return 2;
		}
	} else if (o.compare && !o.native_graph) {	/* #38 native */
		fprintf(stderr, "klist-litmus: --compare is the graph engine's (--engine graph)\n");
		return 2;
	}
	if (engine_cat && o.explore) {
		fprintf(stderr, "klist-litmus: --model, --search, --witness and --diff are the explorer's: not with --engine cat\n");
		return 2;
	}
#if defined(__SANITIZE_THREAD__)
	if (diff) {
		/* ctest's SKIP_RETURN_CODE: the other builds run it. */
		printf("klist-litmus: --diff skipped: every execution by DFS is too slow under ThreadSanitizer\n");
		return 77;
	}
#endif
	for (int i = optind; i < argc; i++) {
		char err[512];
		struct lit_prog *p = lit_parse(argv[i], err, sizeof(err));

		if (!p) {
			fprintf(stderr, "klist-litmus: %s\n", err);
			status = 2;
			continue;
		}
		if ((diff ? lit_diff(p, &o) :
		     o.native_graph ? lit_graph_native(p, &o) :	/* #38 native */
		     o.graph ? lit_graph_run(p, &o) :
		     !o.explore ? lit_cat_run(p, &o) : lit_run(p, &o)) && status == 0)
			status = 1;
		/* The verdict before the witness's interleaving (stderr). */
		fflush(stdout);
		if (witness)
			lit_witness(p, &o);
		fflush(stdout);
		lit_free(p);
	}
	return status;
}
