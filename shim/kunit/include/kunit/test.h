/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup + strict - include/kunit/test.h (v6.1), a subset, keep in
 *   sync; strict: each case runs in a process of its own and fails on the
 *   shim's end-of-test checks (leaks, held locks, live kthreads...).
 *
 * KUnit's test-writing API for userspace.  Test files written against
 * the kernel's <kunit/test.h> compile unchanged against this one; the
 * runner (shim/kunit/kunit-check.c) turns each kunit_suite into a Check
 * suite and each KUNIT_CASE into one Check test, run in its own process.
 *
 * As in KUnit, a failed EXPECT marks the case failed and carries on; a
 * failed ASSERT ends the case at once.
 */
#ifndef _SHIM_KUNIT_TEST_H
#define _SHIM_KUNIT_TEST_H

#include <stdio.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/module.h>
#include <linux/err.h>
#include <linux/list.h>

/* Sizes as in 6.1. */
#define KUNIT_PARAM_DESC_SIZE		128
#define KUNIT_STATUS_COMMENT_SIZE	256

enum kunit_status {
	KUNIT_SUCCESS,
	KUNIT_FAILURE,
	KUNIT_SKIPPED,
};

struct kunit {
	const char *name;
	void *priv;
	/* Parameterised cases: the current parameter and its index. */
	const void *param_value;
	int param_index;
	enum kunit_status status;
	char status_comment[KUNIT_STATUS_COMMENT_SIZE];
	int failures;
	char first_failure[768];
	/* Where the first failure was, in the test: the runner reports it. */
	const char *first_file;
	int first_line;
	struct list_head resources;	/* struct kunit_resource, oldest first */
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
	const void *(*generate_params)(const void *prev, char *desc);
};

#define KUNIT_CASE(test_name)	{ .run_case = test_name, .name = #test_name }
#define KUNIT_CASE_PARAM(test_name, gen_params)			\
	{ .run_case = test_name, .name = #test_name,			\
	  .generate_params = gen_params }

/* As in 6.1: a generator over @array, @get_desc (or NULL) names each. */
#define KUNIT_ARRAY_PARAM(name, array, get_desc)			\
	static const void *name##_gen_params(const void *prev, char *desc) \
	{								\
		typeof((array)[0]) *__next = prev ?			\
			((typeof(__next))prev) + 1 : (array);		\
		if (__next - (array) < ARRAY_SIZE((array))) {		\
			void (*__get_desc)(typeof(__next), char *) = get_desc; \
			if (__get_desc)					\
				__get_desc(__next, desc);		\
			return __next;					\
		}							\
		return NULL;						\
	}

/* Marks the case skipped (a later failure still fails it, as in 6.1). */
#define kunit_mark_skipped(test, fmt, ...) do {				\
	(test)->status = KUNIT_SKIPPED;					\
	snprintf((test)->status_comment, KUNIT_STATUS_COMMENT_SIZE,	\
		 fmt, ##__VA_ARGS__);					\
} while (0)

/* Ends the case now: exit() and cleanup still run, as after a KUnit throw. */
void __noreturn __kunit_abort(struct kunit *test);

#define kunit_skip(test, fmt, ...) do {					\
	kunit_mark_skipped(test, fmt, ##__VA_ARGS__);			\
	__kunit_abort(test);						\
} while (0)


struct kunit_suite {
	const char name[256];
	int (*suite_init)(struct kunit_suite *suite);
	void (*suite_exit)(struct kunit_suite *suite);
	int (*init)(struct kunit *test);
	void (*exit)(struct kunit *test);
	struct kunit_case *test_cases;
};

void kunit_shim_register(struct kunit_suite **suites);

#define kunit_test_suites(__suites...)					\
	static struct kunit_suite *__PASTE(__kunit_suites_, __LINE__)[] = \
		{ __suites, NULL };					\
	__attribute__((__constructor__)) static void			\
	__PASTE(__kunit_register_, __LINE__)(void)			\
	{ kunit_shim_register(__PASTE(__kunit_suites_, __LINE__)); }

#define kunit_test_suite(suite)	kunit_test_suites(&suite)

void *kunit_kmalloc_array(struct kunit *test, size_t n, size_t size, gfp_t gfp);
void kunit_kfree(struct kunit *test, const void *ptr);

static inline void *kunit_kmalloc(struct kunit *test, size_t size, gfp_t gfp)
{
	return kunit_kmalloc_array(test, 1, size, gfp);
}

static inline void *kunit_kzalloc(struct kunit *test, size_t size, gfp_t gfp)
{
	return kunit_kmalloc(test, size, gfp | __GFP_ZERO);
}

static inline void *kunit_kcalloc(struct kunit *test, size_t n, size_t size, gfp_t gfp)
{
	return kunit_kmalloc_array(test, n, size, gfp | __GFP_ZERO);
}

#define kunit_printk(lvl, test, fmt, ...) \
	printk(lvl "    # %s: " fmt "\n", (test)->name, ##__VA_ARGS__)
#define kunit_info(test, fmt, ...)	kunit_printk(KERN_INFO, test, fmt, ##__VA_ARGS__)
#define kunit_warn(test, fmt, ...)	kunit_printk(KERN_WARNING, test, fmt, ##__VA_ARGS__)
#define kunit_err(test, fmt, ...)	kunit_printk(KERN_ERR, test, fmt, ##__VA_ARGS__)

/* Records a failure; ends the case when @assert. */
void __kunit_fail(struct kunit *test, const char *file, int line, bool assert,
		  const char *what, const char *fmt, ...) __printf(6, 7);
/* Only there so that _MSG formats are type-checked. */
static inline __printf(1, 2) void __kunit_check_format(const char *fmt, ...) { }

/* The user message of the checks that take none. */
#define __KUNIT_NOMSG	"%s", ""

#define __KUNIT_FAIL(test, assert, what, fmt...) do {			\
	if (0)								\
		__kunit_check_format(fmt);				\
	__kunit_fail(test, __FILE__, __LINE__, assert, what, fmt);	\
} while (0)

#define KUNIT_FAIL(test, fmt, ...) \
	__KUNIT_FAIL(test, false, "KUNIT_FAIL", fmt, ##__VA_ARGS__)
#define KUNIT_SUCCEED(test)	do { } while (0)

/*
 * The checks below take the texts of their operands (ctext, ltext, rtext,
 * ptext) from the macro the test called: an operand passed on is macro-
 * expanded first, and under the shim atomic_read() alone expands to a
 * page holding __FILE__, which made the message unreadable and its
 * length (a -Wformat-truncation error) depend on the checkout's path.
 */

#define __KUNIT_TRUTH(test, assert, cond, ctext, expect, fmt...) do {	\
	bool __truth = !!(cond);					\
									\
	if (__truth != (expect))					\
		__KUNIT_FAIL(test, assert, "Expected " ctext " to be "	\
			     #expect ", but is not", fmt);		\
} while (0)

#define __KUNIT_BINARY(test, assert, left, op, right, ltext, rtext, fmt...) \
	do {								\
	const __typeof__(left) __left = (left);				\
	const __typeof__(right) __right = (right);			\
	if (!(__left op __right)) {					\
		char __what[2048];					\
		snprintf(__what, sizeof(__what),			\
			 "Expected %s %s %s, but\n        %s == %lld\n        %s == %lld", \
			 ltext, #op, rtext, ltext, (long long)__left,	\
			 rtext, (long long)__right);			\
		__KUNIT_FAIL(test, assert, __what, fmt);		\
	}								\
} while (0)

#define __KUNIT_PTR(test, assert, left, op, right, ltext, rtext, fmt...) \
	do {								\
	const void *__left = (left), *__right = (right);		\
	if (!(__left op __right)) {					\
		char __what[2048];					\
		snprintf(__what, sizeof(__what),			\
			 "Expected %s %s %s, but\n        %s == %p\n        %s == %p", \
			 ltext, #op, rtext, ltext, __left, rtext, __right); \
		__KUNIT_FAIL(test, assert, __what, fmt);		\
	}								\
} while (0)

#define __KUNIT_STR(test, assert, left, op, right, ltext, rtext, fmt...) \
	do {								\
	const char *__left = (left), *__right = (right);		\
	if (!(strcmp(__left, __right) op 0)) {				\
		char __what[2048];					\
		snprintf(__what, sizeof(__what),			\
			 "Expected %s %s %s, but\n        %s == \"%s\"\n        %s == \"%s\"", \
			 ltext, #op, rtext, ltext, __left, rtext, __right); \
		__KUNIT_FAIL(test, assert, __what, fmt);		\
	}								\
} while (0)

#define __KUNIT_NOT_ERR_OR_NULL(test, assert, ptr, ptext, fmt...) do {	\
	const void *__ptr = (ptr);					\
	if (IS_ERR_OR_NULL(__ptr)) {					\
		char __what[2048];					\
		snprintf(__what, sizeof(__what),			\
			 "Expected %s is not error nor NULL, but is %p", ptext, __ptr); \
		__KUNIT_FAIL(test, assert, __what, fmt);		\
	}								\
} while (0)

#define KUNIT_EXPECT_TRUE_MSG(t, c, fmt, ...)	__KUNIT_TRUTH(t, false, c, #c, true, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_FALSE_MSG(t, c, fmt, ...)	__KUNIT_TRUTH(t, false, c, #c, false, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_TRUE_MSG(t, c, fmt, ...)	__KUNIT_TRUTH(t, true, c, #c, true, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_FALSE_MSG(t, c, fmt, ...)	__KUNIT_TRUTH(t, true, c, #c, false, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_TRUE(t, c)		__KUNIT_TRUTH(t, false, c, #c, true, __KUNIT_NOMSG)
#define KUNIT_EXPECT_FALSE(t, c)	__KUNIT_TRUTH(t, false, c, #c, false, __KUNIT_NOMSG)
#define KUNIT_ASSERT_TRUE(t, c)		__KUNIT_TRUTH(t, true, c, #c, true, __KUNIT_NOMSG)
#define KUNIT_ASSERT_FALSE(t, c)	__KUNIT_TRUTH(t, true, c, #c, false, __KUNIT_NOMSG)

#define KUNIT_EXPECT_EQ(t, l, r)	__KUNIT_BINARY(t, false, l, ==, r, #l, #r, __KUNIT_NOMSG)
#define KUNIT_EXPECT_NE(t, l, r)	__KUNIT_BINARY(t, false, l, !=, r, #l, #r, __KUNIT_NOMSG)
#define KUNIT_EXPECT_LT(t, l, r)	__KUNIT_BINARY(t, false, l, <, r, #l, #r, __KUNIT_NOMSG)
#define KUNIT_EXPECT_LE(t, l, r)	__KUNIT_BINARY(t, false, l, <=, r, #l, #r, __KUNIT_NOMSG)
#define KUNIT_EXPECT_GT(t, l, r)	__KUNIT_BINARY(t, false, l, >, r, #l, #r, __KUNIT_NOMSG)
#define KUNIT_EXPECT_GE(t, l, r)	__KUNIT_BINARY(t, false, l, >=, r, #l, #r, __KUNIT_NOMSG)
#define KUNIT_ASSERT_EQ(t, l, r)	__KUNIT_BINARY(t, true, l, ==, r, #l, #r, __KUNIT_NOMSG)
#define KUNIT_ASSERT_NE(t, l, r)	__KUNIT_BINARY(t, true, l, !=, r, #l, #r, __KUNIT_NOMSG)
#define KUNIT_ASSERT_LT(t, l, r)	__KUNIT_BINARY(t, true, l, <, r, #l, #r, __KUNIT_NOMSG)
#define KUNIT_ASSERT_LE(t, l, r)	__KUNIT_BINARY(t, true, l, <=, r, #l, #r, __KUNIT_NOMSG)
#define KUNIT_ASSERT_GT(t, l, r)	__KUNIT_BINARY(t, true, l, >, r, #l, #r, __KUNIT_NOMSG)
#define KUNIT_ASSERT_GE(t, l, r)	__KUNIT_BINARY(t, true, l, >=, r, #l, #r, __KUNIT_NOMSG)
#define KUNIT_EXPECT_EQ_MSG(t, l, r, fmt, ...)	__KUNIT_BINARY(t, false, l, ==, r, #l, #r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NE_MSG(t, l, r, fmt, ...)	__KUNIT_BINARY(t, false, l, !=, r, #l, #r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_LT_MSG(t, l, r, fmt, ...)	__KUNIT_BINARY(t, false, l, <, r, #l, #r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_LE_MSG(t, l, r, fmt, ...)	__KUNIT_BINARY(t, false, l, <=, r, #l, #r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_GT_MSG(t, l, r, fmt, ...)	__KUNIT_BINARY(t, false, l, >, r, #l, #r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_GE_MSG(t, l, r, fmt, ...)	__KUNIT_BINARY(t, false, l, >=, r, #l, #r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_EQ_MSG(t, l, r, fmt, ...)	__KUNIT_BINARY(t, true, l, ==, r, #l, #r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_NE_MSG(t, l, r, fmt, ...)	__KUNIT_BINARY(t, true, l, !=, r, #l, #r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_LT_MSG(t, l, r, fmt, ...)	__KUNIT_BINARY(t, true, l, <, r, #l, #r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_LE_MSG(t, l, r, fmt, ...)	__KUNIT_BINARY(t, true, l, <=, r, #l, #r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_GT_MSG(t, l, r, fmt, ...)	__KUNIT_BINARY(t, true, l, >, r, #l, #r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_GE_MSG(t, l, r, fmt, ...)	__KUNIT_BINARY(t, true, l, >=, r, #l, #r, fmt, ##__VA_ARGS__)

#define KUNIT_EXPECT_PTR_EQ(t, l, r)	__KUNIT_PTR(t, false, l, ==, r, #l, #r, __KUNIT_NOMSG)
#define KUNIT_EXPECT_PTR_NE(t, l, r)	__KUNIT_PTR(t, false, l, !=, r, #l, #r, __KUNIT_NOMSG)
#define KUNIT_ASSERT_PTR_EQ(t, l, r)	__KUNIT_PTR(t, true, l, ==, r, #l, #r, __KUNIT_NOMSG)
#define KUNIT_ASSERT_PTR_NE(t, l, r)	__KUNIT_PTR(t, true, l, !=, r, #l, #r, __KUNIT_NOMSG)
#define KUNIT_EXPECT_PTR_EQ_MSG(t, l, r, fmt, ...) __KUNIT_PTR(t, false, l, ==, r, #l, #r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NULL(t, p)		__KUNIT_PTR(t, false, p, ==, NULL, #p, "NULL", __KUNIT_NOMSG)
#define KUNIT_EXPECT_NOT_NULL(t, p)	__KUNIT_PTR(t, false, p, !=, NULL, #p, "NULL", __KUNIT_NOMSG)
#define KUNIT_ASSERT_NULL(t, p)		__KUNIT_PTR(t, true, p, ==, NULL, #p, "NULL", __KUNIT_NOMSG)
#define KUNIT_ASSERT_NOT_NULL(t, p)	__KUNIT_PTR(t, true, p, !=, NULL, #p, "NULL", __KUNIT_NOMSG)
#define KUNIT_EXPECT_NULL_MSG(t, p, fmt, ...)	__KUNIT_PTR(t, false, p, ==, NULL, #p, "NULL", fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NOT_NULL_MSG(t, p, fmt, ...) __KUNIT_PTR(t, false, p, !=, NULL, #p, "NULL", fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_PTR_NE_MSG(t, l, r, fmt, ...) __KUNIT_PTR(t, false, l, !=, r, #l, #r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_PTR_EQ_MSG(t, l, r, fmt, ...) __KUNIT_PTR(t, true, l, ==, r, #l, #r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_PTR_NE_MSG(t, l, r, fmt, ...) __KUNIT_PTR(t, true, l, !=, r, #l, #r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_NULL_MSG(t, p, fmt, ...)	__KUNIT_PTR(t, true, p, ==, NULL, #p, "NULL", fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_NOT_NULL_MSG(t, p, fmt, ...) __KUNIT_PTR(t, true, p, !=, NULL, #p, "NULL", fmt, ##__VA_ARGS__)

#define KUNIT_EXPECT_STREQ(t, l, r)	__KUNIT_STR(t, false, l, ==, r, #l, #r, __KUNIT_NOMSG)
#define KUNIT_EXPECT_STRNEQ(t, l, r)	__KUNIT_STR(t, false, l, !=, r, #l, #r, __KUNIT_NOMSG)
#define KUNIT_ASSERT_STREQ(t, l, r)	__KUNIT_STR(t, true, l, ==, r, #l, #r, __KUNIT_NOMSG)
#define KUNIT_ASSERT_STRNEQ(t, l, r)	__KUNIT_STR(t, true, l, !=, r, #l, #r, __KUNIT_NOMSG)
#define KUNIT_EXPECT_STREQ_MSG(t, l, r, fmt, ...)  __KUNIT_STR(t, false, l, ==, r, #l, #r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_STRNEQ_MSG(t, l, r, fmt, ...) __KUNIT_STR(t, false, l, !=, r, #l, #r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_STREQ_MSG(t, l, r, fmt, ...)  __KUNIT_STR(t, true, l, ==, r, #l, #r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_STRNEQ_MSG(t, l, r, fmt, ...) __KUNIT_STR(t, true, l, !=, r, #l, #r, fmt, ##__VA_ARGS__)

#define KUNIT_EXPECT_NOT_ERR_OR_NULL(t, p)	__KUNIT_NOT_ERR_OR_NULL(t, false, p, #p, __KUNIT_NOMSG)
#define KUNIT_ASSERT_NOT_ERR_OR_NULL(t, p)	__KUNIT_NOT_ERR_OR_NULL(t, true, p, #p, __KUNIT_NOMSG)
#define KUNIT_EXPECT_NOT_ERR_OR_NULL_MSG(t, p, fmt, ...) \
	__KUNIT_NOT_ERR_OR_NULL(t, false, p, #p, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_NOT_ERR_OR_NULL_MSG(t, p, fmt, ...) \
	__KUNIT_NOT_ERR_OR_NULL(t, true, p, #p, fmt, ##__VA_ARGS__)

#endif
