/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the KUnit runner (kunit-check.c) needs of the runtime the suites
 * run on, so that one runner serves both flavours: the checked shim
 * (kunit-runtime-shim.c) and the fast runtime (fast/testing/).
 */
#ifndef _KUNIT_RUNTIME_H
#define _KUNIT_RUNTIME_H

/* A report that fails the case at once; does not return. */
typedef void (*kunit_runtime_fail_fn)(const char *file, int line,
				      const char *title);

/* Before the case: reset the runtime's per-test state. */
void kunit_runtime_begin(const char *case_name, kunit_runtime_fail_fn fail);

/*
 * After the case: the runtime's end-of-test checks, each problem
 * printed; returns how many there were.
 */
int kunit_runtime_end(void);

#endif
