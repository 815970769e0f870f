/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup - include/kunit/test-bug.h (v6.1), keep in sync.
 *
 * Failing the running KUnit case from code that has no struct kunit.
 */
#ifndef _SHIM_KUNIT_TEST_BUG_H
#define _SHIM_KUNIT_TEST_BUG_H

#include <linux/compiler.h>

__printf(3, 4) void __kunit_fail_current_test(const char *file, int line,
					      const char *fmt, ...);

#define kunit_fail_current_test(fmt, ...) \
	__kunit_fail_current_test(__FILE__, __LINE__, fmt, ##__VA_ARGS__)

#endif
