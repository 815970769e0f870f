// SPDX-License-Identifier: GPL-2.0
/*
 * klist-litmus: judge herd7 C litmus tests under the explorer's memory
 * model.
 *
 *   klist-litmus [--model wmm|sc] [--expect] [--witness] [-v] FILE...
 *
 * One line per file: its name, then Always, Sometimes or Never (how
 * many of the executions the model allows satisfy the condition, as
 * herd7 says it), or "Unsupported WHAT".  --expect compares the verdict
 * with the file's "Result:" line and exits 1 on a mismatch or an
 * unsupported test.  Exit 0 when every file was judged (or marked
 * unsupported), 1 when a run failed or (--expect) a verdict differs,
 * 2 on bad arguments or a file it cannot parse (the line is named).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: klist-litmus [--model wmm|sc] [--expect] [--witness] [-v] FILE...\n"
		"  --model M  the explorer's memory model: wmm (default) or sc\n"
		"  --expect   exit 1 unless each verdict is the file's Result: line\n"
		"  -v         the number of executions and the time\n"
		"  --witness  then the interleaving of one execution satisfying the\n"
		"             condition (each load with the value and the store it read)\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "expect", no_argument, NULL, 'e' },
		{ "witness", no_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool wmm = true, verbose = false, expect = false, witness = false;
	int c, status = 0;

	while ((c = getopt_long(argc, argv, "hvm:", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			if (!strcmp(optarg, "sc")) {
				wmm = false;
			} else if (strcmp(optarg, "wmm")) {
				fprintf(stderr, "klist-litmus: --model takes wmm or sc, not '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'e':
			expect = true;
			break;
		case 'w':
			witness = true;
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
	if (optind == argc) {
		usage(stderr);
		return 2;
	}
	for (int i = optind; i < argc; i++) {
		char err[512];
		struct lit_prog *p = lit_parse(argv[i], err, sizeof(err));

		if (!p) {
			fprintf(stderr, "klist-litmus: %s\n", err);
			status = 2;
			continue;
		}
		if (lit_run(p, wmm, verbose, expect) && status == 0)
			status = 1;
		/* The verdict before the witness's interleaving (stderr). */
		fflush(stdout);
		if (witness)
			lit_witness(p, wmm);
		fflush(stdout);
	}
	return status;
}
