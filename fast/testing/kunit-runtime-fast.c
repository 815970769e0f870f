// SPDX-License-Identifier: GPL-2.0
/*
 * The KUnit runner on the fast runtime.  The runtime has no checks to
 * run, so a case fails on what it can see: a WARN() during the case
 * that it did not announce (kfast/testing.h; the WARN was printed on
 * stderr), an announced one that never came, or a kthread still
 * running at the end.
 */
#include <stdio.h>

#include <kfast/kfast.h>
#include <kfast/testing.h>
#include <linux/kthread.h>

#include "kunit-runtime.h"

static unsigned long warns_before, warns_expected;

void kfast_test_expect_warns(unsigned long n)
{
	warns_expected += n;
}

unsigned long kfast_test_warns(void)
{
	return kfast_warn_count() - warns_before;
}

void kunit_runtime_begin(const char *case_name, kunit_runtime_fail_fn fail)
{
	warns_before = kfast_warn_count();
	warns_expected = 0;
}

int kunit_runtime_end(void)
{
	unsigned long warns = kfast_test_warns();
	int kthreads = kfast_kthreads_running();
	int problems = 0;

	if (warns != warns_expected) {
		printf("kunit-runtime-fast: %lu WARN(s) during the case, %lu expected\n",
		       warns, warns_expected);
		problems++;
	}
	if (kthreads) {
		printf("kunit-runtime-fast: %d kthread(s) still running\n", kthreads);
		problems++;
	}
	return problems;
}
