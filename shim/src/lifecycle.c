// SPDX-License-Identifier: GPL-2.0
/* The start and end of a test: reset state, then run every final check. */
#include <stdio.h>
#include <string.h>

#include <linux/sched.h>
#include "shim-internal.h"

void shim_test_begin(const char *name)
{
	struct task_struct *p = current;

	snprintf(p->comm, sizeof(p->comm), "%s", name);
	shim_reports_reset();
	shim_hooks_reset();
	shim_alloc_begin();
}

int shim_test_end(void)
{
	int problems = 0;

	problems += shim_locks_check_task(current, "test case returned");
	problems += shim_kthreads_check_and_reset();
	problems += shim_alloc_check_and_reset();
	problems += shim_report_unmet_expectations();
	if (current->shim.irq_handler) {
		fprintf(stderr, "shim: a raised interrupt was never delivered\n");
		current->shim.irq_handler = NULL;
		problems++;
	}
	return problems;
}
