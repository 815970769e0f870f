// SPDX-License-Identifier: GPL-2.0
/*
 * The start and end of a test: reset state, then run every final check.
 * And a test run in a forked child, to see what the shim does to it.
 */
/* Bookkeeping here is no scheduling point (<shim/ctl-hook.h>). */
#define SHIM_INTERNAL

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
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

/*
 * The first lines of the first error in the child's valgrind log, where
 * tests/valgrind-run.sh said it is (SHIM_TOOL_LOG, a pattern with %p):
 * a race tool's error exit in a child is no shim report, so without this
 * the failure would have no title and the report would be read by nobody.
 */
static bool tool_log_first_error(pid_t pid, char *out, size_t len)
{
	const char *pattern = getenv("SHIM_TOOL_LOG");
	char path[512], line[512], prefix[32];
	const char *p = pattern ? strstr(pattern, "%p") : NULL;
	size_t used = 0, plen;
	int lines = 0;
	FILE *f;

	if (!p)
		return false;
	snprintf(path, sizeof(path), "%.*s%d%s", (int)(p - pattern), pattern,
		 (int)pid, p + 2);
	f = fopen(path, "r");
	if (!f)
		return false;
	plen = snprintf(prefix, sizeof(prefix), "==%d== ", (int)pid);
	while (lines < 3 && fgets(line, sizeof(line), f)) {
		char *text = line + plen;

		if (strncmp(line, prefix, plen))
			continue;
		text[strcspn(text, "\n")] = '\0';
		/* An error starts at an unindented line after a separator. */
		if (!lines && (!strncmp(text, "Possible data race", 18) ||
			       !strncmp(text, "Conflicting", 11) ||
			       !strncmp(text, "Thread #", 8) ||
			       !strncmp(text, "Invalid", 7) ||
			       !strncmp(text, "Lock", 4)) &&
		    !strstr(text, "was created") && !strstr(text, "root thread"))
			lines = 1;
		else if (lines && text[0] == ' ' && strstr(text, "at 0x"))
			lines++;
		else
			continue;
		used += snprintf(out + used, len - used, "%s%s",
				 used ? " / " : "", text + strspn(text, " "));
		if (used >= len)
			break;
	}
	fclose(f);
	return lines > 0;
}

/* A child that died without a shim report: say how, and what a tool said. */
static void child_death_title(pid_t pid, int status, char *title, size_t len)
{
	char report[400] = "";
	bool tool = tool_log_first_error(pid, report, sizeof(report));

	if (WIFSIGNALED(status))
		snprintf(title, len, "child %d killed by signal %d (%s)%s%s",
			 (int)pid, WTERMSIG(status), strsignal(WTERMSIG(status)),
			 tool ? ": " : "", report);
	else if (tool)
		snprintf(title, len, "child %d: the race tool's error exit %d: %s",
			 (int)pid, WEXITSTATUS(status), report);
	else
		snprintf(title, len,
			 "child %d exited with %d and no shim report (a tool's error exit? its log is above)",
			 (int)pid, WEXITSTATUS(status));
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
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (n <= 0 && len > 1)
		child_death_title(pid, status, title, len);
	return 1;
}
