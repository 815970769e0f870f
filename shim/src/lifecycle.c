// SPDX-License-Identifier: GPL-2.0
/*
 * The start and end of a test: reset state, then run every final check.
 * And a test run in a forked child, to see what the shim does to it.
 */
/* Bookkeeping here is no scheduling point (<shim/ctl-hook.h>). */
#define SHIM_INTERNAL

#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include <linux/sched.h>
#include "shim-internal.h"

void shim_test_begin(const char *name)
{
	struct task_struct *p = current;

	snprintf(p->comm, sizeof(p->comm), "%s", name);
	shim_reports_reset();
	shim_log_clear();
	shim_hooks_reset();
	shim_alloc_begin();
}

int shim_test_end(void)
{
	int problems = 0;

	problems += shim_locks_check_task(current, "test case returned");
	problems += shim_hrtimers_check_and_reset();
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

/* --- running a body in a child, to see what the shim does to it -------- */

static int child_pipe = -1;

static void child_fail(const char *file, int line, const char *title)
{
	char msg[600];
	int n = snprintf(msg, sizeof(msg), "%s (%s:%d)", title, file, line);

	if (write(child_pipe, msg, n) < 0)
		_exit(3);
	_exit(1);
}

int shim_run_in_child(void (*fn)(void *), void *arg, char *title, size_t len)
{
	int fds[2], status = 0;
	ssize_t n = 0;
	pid_t pid;

	if (len)
		title[0] = '\0';
	if (pipe(fds))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(fds[0]);
		child_pipe = fds[1];
		shim_set_fail_handler(child_fail);
		shim_test_begin("child");
		fn(arg);
		if (shim_test_end())
			child_fail(__FILE__, __LINE__, "end-of-test checks failed");
		_exit(0);
	}
	close(fds[1]);
	if (len > 1)
		n = read(fds[0], title, len - 1);
	if (n > 0)
		title[n] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);
	return !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}
