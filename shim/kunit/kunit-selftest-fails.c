// SPDX-License-Identifier: GPL-2.0
/*
 * Cases that must fail, each with its failure located here, not in the
 * runner: ctest checks both (kunit.selftest-fails).
 */
#include <kunit/test.h>
#include <linux/atomic.h>

static void fails_expect(struct kunit *test)
{
	KUNIT_EXPECT_EQ_MSG(test, 1 + 1, 3, "arithmetic");
}

static void fails_assert(struct kunit *test)
{
	KUNIT_ASSERT_STREQ_MSG(test, "a", "b", "%s", "strings");
}

/* As in 6.1: a failure after kunit_mark_skipped() fails the case. */
static void fails_after_skip_mark(struct kunit *test)
{
	kunit_mark_skipped(test, "not for long");
	KUNIT_EXPECT_TRUE(test, false);
}

static const int odd[] = { 1, 2, 3 };

KUNIT_ARRAY_PARAM(odd, odd, NULL);

/* One failing parameter fails the case. */
static void fails_one_param(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, *(const int *)test->param_value % 2, 1);
}

/*
 * The message names the operands as written, not as expanded: under the
 * shim atomic_read() expands to a page (kunit.message-names-operands).
 */
static void fails_names_operands(struct kunit *test)
{
	atomic_t counter = ATOMIC_INIT(1);

	KUNIT_EXPECT_EQ(test, atomic_read(&counter), 2);
}

static struct kunit_case fails_cases[] = {
	KUNIT_CASE(fails_expect),
	KUNIT_CASE(fails_assert),
	KUNIT_CASE(fails_after_skip_mark),
	KUNIT_CASE_PARAM(fails_one_param, odd_gen_params),
	KUNIT_CASE(fails_names_operands),
	{}
};

static struct kunit_suite fails_suite = {
	.name = "kunit_selftest_fails",
	.test_cases = fails_cases,
};

kunit_test_suite(fails_suite);
