// SPDX-License-Identifier: GPL-2.0
/*
 * Runs KUnit-dialect suites under Check.  Each kunit_suite becomes a
 * Check suite and each case one Check test (each parameter of a
 * parameterised case one iteration of a Check loop test), run in a
 * forked process so that a failing case (a report from the runtime, a
 * crash, a timeout) cannot take the others with it.  After the case the
 * runtime's end-of-test checks run (kunit-runtime.h); on the checked
 * shim: leaks, freed-memory writes, held locks, running kthreads and
 * expected reports that never came.
 *
 * Usage: kunit-check [--list] [--ktap] [--ktap-file=FILE] [FILTER...]
 *
 * A FILTER is kunit.py's filter_glob, "suite_glob[.case_glob]"; a bare
 * suite name is one.  Check's CK_RUN_SUITE and CK_RUN_CASE narrow the
 * selection further.  Selecting nothing is an error, never a pass: a
 * typo must not turn into a green run with nothing tested.
 *
 * Output is Check's text, or with --ktap (or KUNIT_OUTPUT=ktap) the KTAP
 * that 6.1's KUnit prints, so that kunit.py parse reads it.
 *
 * Exit status: 0 all selected cases passed (or some skipped), 1 a case
 * failed, 77 every selected case was skipped, 2 usage error or a filter
 * that matches nothing.
 */
#include <check.h>
#include <fnmatch.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>

#include <kunit/resource.h>
#include <kunit/test.h>
#include <kunit/test-bug.h>

#include "kunit-runtime.h"

#define MAX_SUITES	64
#define MAX_CASES	1024
#define MAX_PARAMS	1024
#define CASE_TIMEOUT_S	60
#define EXIT_SKIPPED	77
#define EXIT_USAGE	2

/* How a case that skipped tells the parent: Check has no skip status. */
#define SKIP_MARK	"[KUNIT SKIP] "

struct flat_case {
	struct kunit_suite *suite;
	struct kunit_case *kcase;
	TTest ttest;
	bool selected;
	int nparams;		/* of a parameterised case */
};

static struct kunit_suite *suites[MAX_SUITES];
static int nsuites;
static struct flat_case cases[MAX_CASES];
static int ncases;

/* KTAP goes to stdout and, with --ktap-file, to a copy. */
static bool ktap_mode;
static FILE *ktap_copy;
static const char *prog = "kunit-check";

void kunit_shim_register(struct kunit_suite **list)
{
	for (; *list; list++)
		if (nsuites < MAX_SUITES)
			suites[nsuites++] = *list;
}

static __printf(1, 2) void ktap(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (ktap_copy) {
		va_start(ap, fmt);
		vfprintf(ktap_copy, fmt, ap);
		va_end(ap);
	}
}

/* --- resources (6.1's lib/kunit/resource.c, without the spinlock's irqsave) */

static pthread_mutex_t resource_lock = PTHREAD_MUTEX_INITIALIZER;

struct kunit_resource *__kunit_resource_new(void)
{
	struct kunit_resource *res = calloc(1, sizeof(*res));

	if (!res)
		abort();
	res->should_kfree = true;
	INIT_LIST_HEAD(&res->node);
	return res;
}

void kunit_release_resource(struct kref *kref)
{
	struct kunit_resource *res = container_of(kref, struct kunit_resource,
						  refcount);

	if (res->free)
		res->free(res);
	if (res->should_kfree)
		free(res);
}

int __kunit_add_resource(struct kunit *test, kunit_resource_init_t init,
			 kunit_resource_free_t free, struct kunit_resource *res,
			 void *data)
{
	int ret = 0;

	res->free = free;
	kref_init(&res->refcount);
	if (init) {
		ret = init(res, data);
		if (ret) {
			/* Nothing to free: the caller's put frees only res. */
			res->free = NULL;
			return ret;
		}
	} else {
		res->data = data;
	}
	pthread_mutex_lock(&resource_lock);
	list_add_tail(&res->node, &test->resources);
	pthread_mutex_unlock(&resource_lock);
	return 0;
}

struct kunit_resource *kunit_find_resource(struct kunit *test,
					   kunit_resource_match_t match,
					   void *match_data)
{
	struct kunit_resource *res, *found = NULL;

	pthread_mutex_lock(&resource_lock);
	list_for_each_entry_reverse(res, &test->resources, node) {
		if (match(test, res, match_data)) {
			found = res;
			kunit_get_resource(found);
			break;
		}
	}
	pthread_mutex_unlock(&resource_lock);
	return found;
}

struct kunit_resource *kunit_find_named_resource(struct kunit *test,
						 const char *name)
{
	return kunit_find_resource(test, kunit_resource_name_match, (void *)name);
}

void kunit_remove_resource(struct kunit *test, struct kunit_resource *res)
{
	bool was_linked;

	pthread_mutex_lock(&resource_lock);
	was_linked = !list_empty(&res->node);
	list_del_init(&res->node);
	pthread_mutex_unlock(&resource_lock);
	/* The list's reference. */
	if (was_linked)
		kunit_put_resource(res);
}

int kunit_destroy_resource(struct kunit *test, kunit_resource_match_t match,
			   void *match_data)
{
	struct kunit_resource *res = kunit_find_resource(test, match, match_data);

	if (!res)
		return -ENOENT;
	kunit_remove_resource(test, res);
	/* The reference kunit_find_resource() took: the last one. */
	kunit_put_resource(res);
	return 0;
}

struct kunit_kmalloc_array_params {
	size_t n;
	size_t size;
	gfp_t gfp;
};

static int kunit_kmalloc_array_init(struct kunit_resource *res, void *context)
{
	struct kunit_kmalloc_array_params *params = context;

	res->data = kmalloc_array(params->n, params->size, params->gfp);
	return res->data ? 0 : -ENOMEM;
}

static void kunit_kmalloc_array_free(struct kunit_resource *res)
{
	kfree(res->data);
}

void *kunit_kmalloc_array(struct kunit *test, size_t n, size_t size, gfp_t gfp)
{
	struct kunit_kmalloc_array_params params = { n, size, gfp };

	return kunit_alloc_resource(test, kunit_kmalloc_array_init,
				    kunit_kmalloc_array_free, gfp, &params);
}

void kunit_kfree(struct kunit *test, const void *ptr)
{
	if (kunit_destroy_resource(test, kunit_resource_instance_match, (void *)ptr))
		KUNIT_FAIL(test, "kunit_kfree of %p, which the test did not allocate", ptr);
}

/* As 6.1's kunit_cleanup(): the newest resource first. */
static void release_resources(struct kunit *test)
{
	struct kunit_resource *res;

	for (;;) {
		pthread_mutex_lock(&resource_lock);
		if (list_empty(&test->resources)) {
			pthread_mutex_unlock(&resource_lock);
			break;
		}
		res = list_last_entry(&test->resources, struct kunit_resource, node);
		list_del_init(&res->node);
		pthread_mutex_unlock(&resource_lock);
		kunit_put_resource(res);
	}
}

/*
 * Prints "    # case: EXPECTATION FAILED at file:line" and the message,
 * as 6.1's kunit_fail() does; the location is the test's, not ours.
 */
void __kunit_fail(struct kunit *test, const char *file, int line, bool assert,
		  const char *what, const char *fmt, ...)
{
	char msg[256], diag[2560];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(diag, sizeof(diag), "    # %s: %s FAILED at %s:%d\n    %s%s%s\n",
		 test->name, assert ? "ASSERTION" : "EXPECTATION", file, line,
		 what, msg[0] ? "\n    " : "", msg);
	/* In KTAP the diagnostic belongs with the results; else the log. */
	if (ktap_mode)
		ktap("%s", diag);
	else
		fputs(diag, stderr);
	test->status = KUNIT_FAILURE;
	if (!test->failures++) {
		snprintf(test->first_failure, sizeof(test->first_failure),
			 "%s%s%s", what, msg[0] ? ": " : "", msg);
		test->first_file = file;
		test->first_line = line;
	}
	if (assert) {
		/* Check's failure path leaves with _exit(): flush first. */
		fflush(NULL);
		_ck_assert_failed(file, line, "KUNIT_ASSERT", "%s", test->first_failure);
	}
}

/* One case per process: the running case is a plain global. */
static struct kunit *current_test;
static jmp_buf case_abort;
static pthread_t case_thread;

void __kunit_fail_current_test(const char *file, int line, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (current_test)
		__kunit_fail(current_test, file, line, false, msg, "%s", "");
}

void __kunit_abort(struct kunit *test)
{
	/* A jump is only possible on the case's own thread. */
	if (pthread_equal(pthread_self(), case_thread))
		longjmp(case_abort, 1);
	fflush(NULL);
	if (test->status == KUNIT_SKIPPED)
		_ck_assert_failed(__FILE__, __LINE__, "kunit_skip", "%s%s",
				  SKIP_MARK, test->status_comment);
	_ck_assert_failed(__FILE__, __LINE__, "kunit abort", "case aborted");
}

static void runtime_failed(const char *file, int line, const char *title)
{
	fflush(NULL);
	_ck_assert_failed(file, line, "shim report", "%s", title);
}

/* _i encodes the case and, for a parameterised case, the parameter. */
static void run_case(int _i)
{
	struct flat_case *fc = &cases[_i % MAX_CASES];
	struct kunit_suite *suite = fc->suite;
	struct kunit test = { .name = fc->kcase->name };
	char desc[KUNIT_PARAM_DESC_SIZE];
	int problems, k;

	if (fc->kcase->generate_params) {
		test.param_index = _i / MAX_CASES;
		for (k = 0; k <= test.param_index; k++) {
			desc[0] = '\0';
			test.param_value = fc->kcase->generate_params(test.param_value, desc);
		}
	}
	INIT_LIST_HEAD(&test.resources);
	current_test = &test;
	case_thread = pthread_self();
	kunit_runtime_begin(fc->kcase->name, runtime_failed);
	/* Every case runs in a fresh process, so suite_init runs per case. */
	if (suite->suite_init && suite->suite_init(suite))
		ck_abort_msg("suite_init of %s failed", suite->name);
	if (suite->init && suite->init(&test))
		ck_abort_msg("init of %s failed", suite->name);
	if (!setjmp(case_abort))
		fc->kcase->run_case(&test);
	if (suite->exit)
		suite->exit(&test);
	if (suite->suite_exit)
		suite->suite_exit(suite);
	release_resources(&test);
	problems = kunit_runtime_end();
	fflush(NULL);
	if (test.failures)
		_ck_assert_failed(test.first_file, test.first_line, "KUNIT_EXPECT",
				  "%d expectation(s) failed; first: %s",
				  test.failures, test.first_failure);
	if (problems)
		ck_abort_msg("%d problem(s) found at the end of the test (see the log above)",
			     problems);
	if (test.status == KUNIT_SKIPPED)
		_ck_assert_failed(__FILE__, __LINE__, "kunit_skip", "%s%s",
				  SKIP_MARK, test.status_comment);
}

/* --- selection ----------------------------------------------------------- */

/* kunit.py's filter_glob: "suite_glob[.case_glob]". */
static bool glob_matches(const char *glob, const struct flat_case *fc)
{
	const char *dot = strchr(glob, '.');
	char sglob[256];

	if (!dot)
		return !fnmatch(glob, fc->suite->name, 0);
	snprintf(sglob, sizeof(sglob), "%.*s", (int)(dot - glob), glob);
	return !fnmatch(sglob, fc->suite->name, 0) &&
	       !fnmatch(dot + 1, fc->kcase->name, 0);
}

static int count_params(struct kunit_case *kc)
{
	char desc[KUNIT_PARAM_DESC_SIZE];
	const void *v = NULL;
	int n = 0;

	do {
		desc[0] = '\0';
		v = kc->generate_params(v, desc);
	} while (v && ++n < MAX_PARAMS);
	return n;
}

static void flatten(void)
{
	struct kunit_case *kc;
	int i;

	for (i = 0; i < nsuites; i++) {
		for (kc = suites[i]->test_cases; kc->run_case; kc++) {
			struct flat_case *fc = &cases[ncases];

			if (ncases == MAX_CASES) {
				fprintf(stderr, "%s: more than %d cases\n", prog,
					MAX_CASES);
				exit(EXIT_USAGE);
			}
			fc->suite = suites[i];
			fc->kcase = kc;
			fc->nparams = kc->generate_params ? count_params(kc) : 0;
			fc->ttest = (TTest){ kc->name, run_case, suites[i]->name, 0 };
			ncases++;
		}
	}
}

/*
 * Marks the selected cases; returns how many, or -1 after saying which
 * filter selects nothing (each must select something: one typo among
 * several is still a typo).
 */
static int select_cases(int nglobs, char **globs)
{
	const char *ck_suite = getenv("CK_RUN_SUITE");
	const char *ck_case = getenv("CK_RUN_CASE");
	int g, i, n = 0;

	for (g = 0; g < nglobs; g++) {
		for (i = 0; i < ncases; i++)
			if (glob_matches(globs[g], &cases[i]))
				break;
		if (i == ncases) {
			fprintf(stderr, "%s: filter '%s' matches no case (--list shows them all)\n",
				prog, globs[g]);
			return -1;
		}
	}
	for (i = 0; i < ncases; i++) {
		struct flat_case *fc = &cases[i];

		fc->selected = !nglobs;
		for (g = 0; g < nglobs && !fc->selected; g++)
			fc->selected = glob_matches(globs[g], fc);
		/* Check's own selection, with Check's exact-name semantics. */
		if (ck_suite && *ck_suite && strcmp(ck_suite, fc->suite->name))
			fc->selected = false;
		if (ck_case && *ck_case && strcmp(ck_case, fc->kcase->name))
			fc->selected = false;
		n += fc->selected;
	}
	if (!n)
		fprintf(stderr, "%s: no case selected (CK_RUN_SUITE='%s', CK_RUN_CASE='%s'; --list shows them all)\n",
			prog, ck_suite ? ck_suite : "", ck_case ? ck_case : "");
	return n;
}

static TCase *make_tcase(struct flat_case *fc, int param)
{
	TCase *tc = tcase_create(fc->kcase->name);
	int i = fc - cases;

	tcase_set_timeout(tc, CASE_TIMEOUT_S);
	if (param >= 0)		/* one parameter */
		_tcase_add_test(tc, &fc->ttest, 0, 0, i + param * MAX_CASES,
				i + param * MAX_CASES + 1);
	else if (fc->kcase->generate_params)	/* each in a process of its own */
		for (param = 0; param < fc->nparams; param++)
			_tcase_add_test(tc, &fc->ttest, 0, 0, i + param * MAX_CASES,
					i + param * MAX_CASES + 1);
	else
		_tcase_add_test(tc, &fc->ttest, 0, 0, i, i + 1);
	return tc;
}

static bool is_skip(TestResult *tr)
{
	return tr_rtype(tr) == CK_FAILURE &&
	       !strncmp(tr_msg(tr), SKIP_MARK, strlen(SKIP_MARK));
}

struct stats {
	int passed, failed, skipped;
};

static void count(struct stats *st, enum kunit_status status)
{
	if (status == KUNIT_SUCCESS)
		st->passed++;
	else if (status == KUNIT_FAILURE)
		st->failed++;
	else
		st->skipped++;
}

/* --- Check's text -------------------------------------------------------- */

static int run_check_text(struct stats *st)
{
	SRunner *sr = NULL;
	TestResult **results;
	int i, j, n;

	for (i = 0; i < ncases; i = j) {
		Suite *s = NULL;

		for (j = i; j < ncases && cases[j].suite == cases[i].suite; j++) {
			if (!cases[j].selected)
				continue;
			if (!s)
				s = suite_create(cases[j].suite->name);
			suite_add_tcase(s, make_tcase(&cases[j], -1));
		}
		if (!s)
			continue;
		if (!sr)
			sr = srunner_create(s);
		else
			srunner_add_suite(sr, s);
	}
	if (srunner_fork_status(sr) == CK_NOFORK) {
		fprintf(stderr, "%s: CK_FORK=no is not supported: the shim fails a case by ending its process\n",
			prog);
		return EXIT_USAGE;
	}
	srunner_run_all(sr, getenv("CK_VERBOSITY") ? CK_ENV : CK_VERBOSE);
	results = srunner_results(sr);
	n = srunner_ntests_run(sr);
	for (i = 0; i < n; i++)
		count(st, tr_rtype(results[i]) == CK_PASS ? KUNIT_SUCCESS :
			  is_skip(results[i]) ? KUNIT_SKIPPED : KUNIT_FAILURE);
	free(results);
	srunner_free(sr);
	if (st->skipped)
		printf("%s: %d skipped (Check counts them as failures above)\n",
		       prog, st->skipped);
	return 0;
}

/* --- KTAP ------------------------------------------------------------------ */

/*
 * Runs one case, or one parameter of it, in a runner of its own, so
 * that its result line follows its diagnostics.  A skip's reason goes
 * to @why.
 */
static enum kunit_status run_one(struct flat_case *fc, int param,
				 const char *indent, char *why, size_t len)
{
	Suite *s = suite_create(fc->suite->name);
	enum kunit_status status;
	TestResult **results;
	const char *msg;
	SRunner *sr;

	suite_add_tcase(s, make_tcase(fc, param));
	sr = srunner_create(s);
	why[0] = '\0';
	/* The child inherits our buffers: empty them before it forks. */
	fflush(NULL);
	/* Explicit names: Check's environment must not select nothing. */
	srunner_run(sr, fc->suite->name, fc->kcase->name, CK_SILENT);
	results = srunner_results(sr);
	if (srunner_ntests_run(sr) != 1) {
		ktap("%s# %s: the case did not run\n", indent, fc->kcase->name);
		status = KUNIT_FAILURE;
	} else if (tr_rtype(results[0]) == CK_PASS) {
		status = KUNIT_SUCCESS;
	} else if (is_skip(results[0])) {
		snprintf(why, len, "%s", tr_msg(results[0]) + strlen(SKIP_MARK));
		status = KUNIT_SKIPPED;
	} else {
		/* First line only: the child has printed the details. */
		msg = tr_msg(results[0]);
		/* A shim report names its place; a timeout or crash has none. */
		if (strstr(msg, tr_lfile(results[0])) || !tr_lno(results[0]))
			ktap("%s# %s: %.*s\n", indent, fc->kcase->name,
			     (int)strcspn(msg, "\n"), msg);
		else
			ktap("%s# %s: %.*s at %s:%d\n", indent, fc->kcase->name,
			     (int)strcspn(msg, "\n"), msg, tr_lfile(results[0]),
			     tr_lno(results[0]));
		status = KUNIT_FAILURE;
	}
	free(results);
	srunner_free(sr);
	return status;
}

static void ktap_result(const char *indent, enum kunit_status status, int n,
			const char *name, const char *why)
{
	ktap("%s%s %d %s%s%s\n", indent,
	     status == KUNIT_FAILURE ? "not ok" : "ok", n, name,
	     status == KUNIT_SKIPPED ? " # SKIP " : "",
	     status == KUNIT_SKIPPED ? why : "");
}

/* 6.1 prints a count line only when there is more than one result. */
static void ktap_stats(const char *indent, const char *name, struct stats *st)
{
	int total = st->passed + st->failed + st->skipped;

	if (total > 1)
		ktap("%s# %s: pass:%d fail:%d skip:%d total:%d\n", indent, name,
		     st->passed, st->failed, st->skipped, total);
}

/* A parameterised case: a nested subtest, one result per parameter. */
static enum kunit_status run_params(struct flat_case *fc, struct stats *totals)
{
	enum kunit_status status = KUNIT_SKIPPED, ps;
	char desc[KUNIT_PARAM_DESC_SIZE], why[KUNIT_STATUS_COMMENT_SIZE];
	struct stats st = { 0 };
	const void *v = NULL;
	int p;

	ktap("        KTAP version 1\n        # Subtest: %s\n", fc->kcase->name);
	for (p = 0; p < fc->nparams; p++) {
		desc[0] = '\0';
		v = fc->kcase->generate_params(v, desc);
		if (!desc[0])
			snprintf(desc, sizeof(desc), "param-%d", p);
		ps = run_one(fc, p, "        ", why, sizeof(why));
		ktap_result("        ", ps, p + 1, desc, why);
		count(&st, ps);
		count(totals, ps);
		/* The case: failed if one failed, else passed if one passed. */
		if (ps == KUNIT_FAILURE || status == KUNIT_SKIPPED)
			status = ps == KUNIT_SKIPPED ? status : ps;
	}
	ktap_stats("    ", fc->kcase->name, &st);
	return status;
}

static int run_ktap(struct stats *totals)
{
	char why[KUNIT_STATUS_COMMENT_SIZE];
	int i, j, k, nsel_suites = 0, suite_no = 0;
	struct kunit_suite *last = NULL;

	for (i = 0; i < ncases; i++) {
		if (cases[i].selected && cases[i].suite != last)
			nsel_suites++;
		if (cases[i].selected)
			last = cases[i].suite;
	}
	ktap("KTAP version 1\n1..%d\n", nsel_suites);
	for (i = 0; i < ncases; i = j) {
		enum kunit_status suite_status = KUNIT_SKIPPED, cs;
		struct stats st = { 0 }, leaves = { 0 };
		int n = 0;

		for (j = i; j < ncases && cases[j].suite == cases[i].suite; j++)
			n += cases[j].selected;
		if (!n)
			continue;
		ktap("    KTAP version 1\n    # Subtest: %s\n    1..%d\n",
		     cases[i].suite->name, n);
		for (k = i, n = 0; k < j; k++) {
			struct flat_case *fc = &cases[k];

			if (!fc->selected)
				continue;
			/* No parameter at all: skipped, as in 6.1. */
			if (fc->kcase->generate_params) {
				cs = run_params(fc, &leaves);
				why[0] = '\0';
			} else {
				cs = run_one(fc, -1, "    ", why, sizeof(why));
				count(&leaves, cs);
			}
			ktap_result("    ", cs, ++n, fc->kcase->name, why);
			count(&st, cs);
			if (cs == KUNIT_FAILURE)
				suite_status = KUNIT_FAILURE;
			else if (cs == KUNIT_SUCCESS && suite_status != KUNIT_FAILURE)
				suite_status = KUNIT_SUCCESS;
		}
		ktap_stats("", cases[i].suite->name, &st);
		/* "Totals" counts every parameter, as 6.1's does. */
		ktap_stats("", "Totals", &leaves);
		totals->passed += leaves.passed;
		totals->failed += leaves.failed;
		totals->skipped += leaves.skipped;
		ktap_result("", suite_status, ++suite_no, cases[i].suite->name, "");
	}
	return 0;
}

/* --- main -------------------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [--list] [--ktap] [--ktap-file=FILE] [FILTER...]\n"
		"Runs the KUnit suites linked in, each case in a process of its own.\n\n"
		"  FILTER           suite_glob[.case_glob], as kunit.py's filter_glob;\n"
		"                   every FILTER must match a case\n"
		"  --list           print suite.case for the selected cases, run nothing\n"
		"  --ktap           KTAP (as 6.1's KUnit prints it) instead of Check's text;\n"
		"                   also KUNIT_OUTPUT=ktap\n"
		"  --ktap-file=FILE with --ktap, a copy of the KTAP in FILE\n\n"
		"Check's CK_RUN_SUITE, CK_RUN_CASE, CK_VERBOSITY, CK_TIMEOUT_MULTIPLIER apply.\n"
		"Exit: 0 passed, 1 a case failed, 77 all skipped, 2 usage or nothing selected.\n",
		prog);
}

int main(int argc, char **argv)
{
	const char *out = getenv("KUNIT_OUTPUT");
	const char *ktap_file = NULL;
	struct stats st = { 0 };
	bool list = false;
	char *globs[64];
	int i, ret, nglobs = 0;

	if (argc > 0 && argv[0][0])
		prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	ktap_mode = out && !strcmp(out, "ktap");
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--list")) {
			list = true;
		} else if (!strcmp(argv[i], "--ktap")) {
			ktap_mode = true;
		} else if (!strncmp(argv[i], "--ktap-file=", 12)) {
			ktap_file = argv[i] + 12;
		} else if (argv[i][0] == '-' || nglobs == ARRAY_SIZE(globs)) {
			fprintf(stderr, "%s: unknown option or too many filters: %s\n",
				prog, argv[i]);
			usage(stderr);
			return EXIT_USAGE;
		} else {
			globs[nglobs++] = argv[i];
		}
	}
	flatten();
	if (select_cases(nglobs, globs) <= 0)
		return EXIT_USAGE;
	if (list) {
		for (i = 0; i < ncases; i++)
			if (cases[i].selected)
				printf("%s.%s\n", cases[i].suite->name,
				       cases[i].kcase->name);
		return 0;
	}
	if (!ktap_mode) {
		ret = run_check_text(&st);
	} else {
		if (ktap_file) {
			ktap_copy = fopen(ktap_file, "w");
			if (!ktap_copy) {
				perror(ktap_file);
				return EXIT_USAGE;
			}
			setvbuf(ktap_copy, NULL, _IOLBF, 0);
		}
		/* Line by line: a child that crashes loses no diagnostics. */
		setvbuf(stdout, NULL, _IOLBF, 0);
		ret = run_ktap(&st);
		if (ktap_copy)
			fclose(ktap_copy);
	}
	if (ret)
		return ret;
	if (st.failed)
		return 1;
	return st.passed ? 0 : EXIT_SKIPPED;
}
