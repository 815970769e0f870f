/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the shim's own suites: run a planted bug in a forked child
 * (shim_run_in_child()), whose failure cannot end the test itself, and
 * check that it failed with the report the rule promises.
 */
#ifndef _SHIM_CHILD_H
#define _SHIM_CHILD_H

#include <kunit/test.h>
#include <shim/shim.h>
#include <string.h>

/* Runs @fn in a child; true if it failed with @substring in the report. */
static inline bool child_fails_with(struct kunit *test, void (*fn)(void *),
				    void *arg, const char *substring)
{
	char title[600];
	int failed = shim_run_in_child(fn, arg, title, sizeof(title));

	KUNIT_EXPECT_EQ_MSG(test, failed, 1, "child passed, wanted \"%s\"", substring);
	KUNIT_EXPECT_TRUE_MSG(test, strstr(title, substring) != NULL,
			      "report was \"%s\", wanted \"%s\"", title, substring);
	return failed && strstr(title, substring);
}

#endif /* _SHIM_CHILD_H */
