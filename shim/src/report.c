// SPDX-License-Identifier: GPL-2.0
/*
 * Reports: the one path every detected problem takes.  A report either
 * matches an expectation the test declared (and is counted), or fails
 * the test through the handler the runner installed.
 */
/* Bookkeeping here is no scheduling point (<shim/ctl-hook.h>). */
#define SHIM_INTERNAL

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/sched.h>
#include "shim-internal.h"

#define MAX_EXPECT	64

static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	char substring[128];
	bool seen;
} expected[MAX_EXPECT];
static int nexpected, nseen;

static void default_fail(const char *file, int line, const char *title)
{
	fprintf(stderr, "shim: unexpected report at %s:%d: %s\n", file, line, title);
	abort();
}

static shim_fail_fn fail_handler = default_fail;

void shim_set_fail_handler(shim_fail_fn fn)
{
	fail_handler = fn ? fn : default_fail;
}

void shim_expect_report(const char *substring)
{
	pthread_mutex_lock(&report_lock);
	if (nexpected == MAX_EXPECT) {
		/* Dropping one would fail the test later, far from here. */
		pthread_mutex_unlock(&report_lock);
		fprintf(stderr, "shim: more than %d expected reports in one test\n",
			MAX_EXPECT);
		abort();
	}
	snprintf(expected[nexpected].substring,
		 sizeof(expected[nexpected].substring), "%s", substring);
	expected[nexpected].seen = false;
	nexpected++;
	pthread_mutex_unlock(&report_lock);
}

int shim_expected_reports_seen(void)
{
	int n;

	pthread_mutex_lock(&report_lock);
	n = nseen;
	pthread_mutex_unlock(&report_lock);
	return n;
}

/*
 * For a test that cannot know beforehand how many times a report comes
 * (a misuse whose loser depends on the schedule): how many reports the
 * expectations with exactly @substring absorbed; those expectations go,
 * met or not, so the unmet ones fail nothing.
 */
int shim_expect_report_withdraw(const char *substring)
{
	int i, j, seen = 0;

	pthread_mutex_lock(&report_lock);
	for (i = 0, j = 0; i < nexpected; i++) {
		if (!strcmp(expected[i].substring, substring)) {
			seen += expected[i].seen;
			continue;
		}
		expected[j++] = expected[i];
	}
	nexpected = j;
	pthread_mutex_unlock(&report_lock);
	return seen;
}

/* Consume the first unmet expectation that @title satisfies. */
static bool match_expectation(const char *title)
{
	bool matched = false;
	int i;

	pthread_mutex_lock(&report_lock);
	for (i = 0; i < nexpected; i++) {
		if (!expected[i].seen && strstr(title, expected[i].substring)) {
			expected[i].seen = true;
			nseen++;
			matched = true;
			break;
		}
	}
	pthread_mutex_unlock(&report_lock);
	return matched;
}

void shim_report(const char *file, int line, const char *fmt, ...)
{
	struct task_struct *p = current;
	char title[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(title, sizeof(title), fmt, ap);
	va_end(ap);

	if (match_expectation(title)) {
		fprintf(stderr, "shim: expected report: %s\n", title);
		return;
	}
	fprintf(stderr, "------------[ shim report ]------------\n%s\n", title);
	fprintf(stderr, "task: %s, detected at %s:%d\n", shim_task_name(p), file, line);
	shim_log_held_locks(p);
	fprintf(stderr, "---------------------------------------\n");
	fail_handler(file, line, title);
	abort();	/* a handler must not return */
}

int shim_report_unmet_expectations(void)
{
	int i, unmet = 0;

	for (i = 0; i < nexpected; i++) {
		if (expected[i].seen)
			continue;
		fprintf(stderr, "shim: expected a report containing \"%s\", none came\n",
			expected[i].substring);
		unmet++;
	}
	return unmet;
}

void shim_reports_reset(void)
{
	pthread_mutex_lock(&report_lock);
	nexpected = 0;
	nseen = 0;
	pthread_mutex_unlock(&report_lock);
}

void __shim_warn(const char *file, int line, const char *func, const char *fmt, ...)
{
	char msg[256] = "";
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	msg[strcspn(msg, "\n")] = '\0';
	shim_report(file, line, "WARNING: at %s:%d %s(): %s", file, line, func, msg);
}

void __shim_warn_on(const char *file, int line, const char *func)
{
	shim_report(file, line, "WARNING: at %s:%d %s()", file, line, func);
}

void __shim_bug(const char *file, int line, const char *func)
{
	shim_report(file, line, "kernel BUG at %s:%d %s()", file, line, func);
	/* Even an expected BUG does not return: the kernel would oops here. */
	fail_handler(file, line, "kernel BUG (expected, but BUG never returns)");
	abort();
}
