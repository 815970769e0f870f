// SPDX-License-Identifier: GPL-2.0
/*
 * Runs KUnit-dialect suites under Check.  Each kunit_suite becomes a
 * Check suite and each case one Check test, run in a forked process so
 * that a failing case (a report from the shim, a crash, a timeout)
 * cannot take the others with it.  After the case the shim's
 * end-of-test checks run: leaks, freed-memory writes, held locks,
 * running kthreads and expected reports that never came.
 *
 * Usage: kunit-check [SUITE...]   (no argument: every suite)
 */
#include <check.h>
#include <stdarg.h>
#include <stdlib.h>

#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <shim/shim.h>

#define MAX_SUITES	64
#define MAX_CASES	1024
#define CASE_TIMEOUT_S	60

struct kunit_shim_resource {
	struct kunit_shim_resource *next;
	void *ptr;
};

struct flat_case {
	struct kunit_suite *suite;
	struct kunit_case *kcase;
	TTest ttest;
};

static struct kunit_suite *suites[MAX_SUITES];
static int nsuites;
static struct flat_case cases[MAX_CASES];
static int ncases;

void kunit_shim_register(struct kunit_suite **list)
{
	for (; *list; list++)
		if (nsuites < MAX_SUITES)
			suites[nsuites++] = *list;
}

void *kunit_kmalloc_array(struct kunit *test, size_t n, size_t size, gfp_t gfp)
{
	struct kunit_shim_resource *res;
	void *p = kmalloc_array(n, size, gfp);

	if (!p)
		return NULL;
	res = malloc(sizeof(*res));
	if (!res)
		abort();
	res->ptr = p;
	res->next = test->resources;
	test->resources = res;
	return p;
}

void kunit_kfree(struct kunit *test, const void *ptr)
{
	struct kunit_shim_resource **pp, *res;

	for (pp = &test->resources; (res = *pp); pp = &res->next) {
		if (res->ptr == ptr) {
			*pp = res->next;
			kfree(res->ptr);
			free(res);
			return;
		}
	}
	KUNIT_FAIL(test, "kunit_kfree of %p, which the test did not allocate", ptr);
}

static void release_resources(struct kunit *test)
{
	while (test->resources) {
		struct kunit_shim_resource *res = test->resources;

		test->resources = res->next;
		kfree(res->ptr);
		free(res);
	}
}

void __kunit_fail(struct kunit *test, const char *file, int line, bool assert,
		  const char *what, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "    # %s: %s:%d\n    %s%s%s\n", test->name, file, line,
		what, msg[0] ? "\n    " : "", msg);
	if (!test->failures++)
		snprintf(test->first_failure, sizeof(test->first_failure),
			 "%s%s%s", what, msg[0] ? ": " : "", msg);
	if (assert)
		_ck_assert_failed(file, line, "KUNIT_ASSERT", "%s", test->first_failure);
}

/* One case per process: the running case is a plain global. */
static struct kunit *current_test;

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

static void shim_failed(const char *file, int line, const char *title)
{
	_ck_assert_failed(file, line, "shim report", "%s", title);
}

static void run_case(int i)
{
	struct flat_case *fc = &cases[i];
	struct kunit_suite *suite = fc->suite;
	struct kunit test = { .name = fc->kcase->name };
	int problems;

	current_test = &test;
	shim_set_fail_handler(shim_failed);
	shim_test_begin(fc->kcase->name);
	/* Every case runs in a fresh process, so suite_init runs per case. */
	if (suite->suite_init && suite->suite_init(suite))
		ck_abort_msg("suite_init of %s failed", suite->name);
	if (suite->init && suite->init(&test))
		ck_abort_msg("init of %s failed", suite->name);
	fc->kcase->run_case(&test);
	if (suite->exit)
		suite->exit(&test);
	if (suite->suite_exit)
		suite->suite_exit(suite);
	release_resources(&test);
	problems = shim_test_end();
	if (test.failures)
		ck_abort_msg("%d expectation(s) failed; first: %s", test.failures,
			     test.first_failure);
	if (problems)
		ck_abort_msg("%d problem(s) found at the end of the test (see the log above)",
			     problems);
}

static Suite *make_suite(struct kunit_suite *ks)
{
	Suite *s = suite_create(ks->name);
	struct kunit_case *kc;

	for (kc = ks->test_cases; kc->run_case; kc++) {
		struct flat_case *fc;
		TCase *tc;

		if (ncases == MAX_CASES)
			break;
		fc = &cases[ncases];
		fc->suite = ks;
		fc->kcase = kc;
		fc->ttest = (TTest){ kc->name, run_case, ks->name, 0 };
		tc = tcase_create(kc->name);
		tcase_set_timeout(tc, CASE_TIMEOUT_S);
		_tcase_add_test(tc, &fc->ttest, 0, 0, ncases, ncases + 1);
		suite_add_tcase(s, tc);
		ncases++;
	}
	return s;
}

static bool wanted(const char *name, int argc, char **argv)
{
	int i;

	if (argc < 2)
		return true;
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], name))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	SRunner *sr = NULL;
	int i, failed, found = 0;

	for (i = 0; i < nsuites; i++) {
		if (!wanted(suites[i]->name, argc, argv))
			continue;
		if (!sr)
			sr = srunner_create(make_suite(suites[i]));
		else
			srunner_add_suite(sr, make_suite(suites[i]));
		found++;
	}
	if (!found) {
		fprintf(stderr, "kunit-check: no suite matches\n");
		return 2;
	}
	if (srunner_fork_status(sr) == CK_NOFORK) {
		fprintf(stderr, "kunit-check: CK_FORK=no is not supported: the shim fails a case by ending its process\n");
		return 2;
	}
	srunner_run_all(sr, getenv("CK_VERBOSITY") ? CK_ENV : CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
