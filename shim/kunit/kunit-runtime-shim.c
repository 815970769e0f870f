// SPDX-License-Identifier: GPL-2.0
/*
 * The KUnit runner on the checked shim: its reports fail the case at
 * once, and its end-of-test checks (leaks, freed-memory writes, held
 * locks, running kthreads, expected reports that never came) run after.
 */
#include <shim/shim.h>

#include "kunit-runtime.h"

void kunit_runtime_begin(const char *case_name, kunit_runtime_fail_fn fail)
{
	shim_set_fail_handler(fail);
	shim_test_begin(case_name);
}

int kunit_runtime_end(void)
{
	return shim_test_end();
}
