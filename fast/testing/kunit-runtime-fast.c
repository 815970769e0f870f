// SPDX-License-Identifier: GPL-2.0
/*
 * The KUnit runner on the fast runtime.  The runtime has no checks to
 * run, so a case fails on what it can see: a WARN() during the case (it
 * was printed on stderr), or a kthread still running at the end.
 */
#include <stdio.h>

#include <kfast/kfast.h>
#include <linux/kthread.h>

#include "kunit-runtime.h"

static unsigned long warns_before;

void kunit_runtime_begin(const char *case_name, kunit_runtime_fail_fn fail)
{
	warns_before = kfast_warn_count();
}

int kunit_runtime_end(void)
{
	unsigned long warns = kfast_warn_count() - warns_before;
	int kthreads = kfast_kthreads_running();
	int problems = 0;

	if (warns) {
		printf("kunit-runtime-fast: %lu WARN(s) during the case\n", warns);
		problems++;
	}
	if (kthreads) {
		printf("kunit-runtime-fast: %d kthread(s) still running\n", kthreads);
		problems++;
	}
	return problems;
}
