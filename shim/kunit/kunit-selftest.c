// SPDX-License-Identifier: GPL-2.0
/*
 * The runner's own tests: the KUnit API the shared tests may use
 * (parameters, skips, _MSG checks, resources) with 6.1's semantics.
 * kunit_selftest must pass (its skips skipped); every case of
 * kunit_selftest_fails (kunit-selftest-fails.c) must fail.
 */
#include <kunit/resource.h>
#include <kunit/test.h>

struct square {
	int in, out;
};

static const struct square squares[] = { { 1, 1 }, { 2, 4 }, { 3, 9 } };

static void square_desc(const struct square *s, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%d^2", s->in);
}

KUNIT_ARRAY_PARAM(squares, squares, square_desc);

static void selftest_param(struct kunit *test)
{
	const struct square *s = test->param_value;

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_EXPECT_EQ_MSG(test, s->in * s->in, s->out, "param %d",
			    test->param_index);
	KUNIT_EXPECT_PTR_EQ(test, s, &squares[test->param_index]);
}

static const int plain[] = { 5, 6 };

/* No description: 6.1 names them param-0, param-1. */
KUNIT_ARRAY_PARAM(plain, plain, NULL);

static void selftest_param_nodesc(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, *(const int *)test->param_value,
			plain[test->param_index]);
}

static int exit_ran;

static void selftest_skip(struct kunit *test)
{
	kunit_skip(test, "skipped on purpose %d", 42);
	KUNIT_FAIL(test, "kunit_skip() returned");
}

static void selftest_mark_skipped(struct kunit *test)
{
	kunit_mark_skipped(test, "marked");
	/* The case goes on after kunit_mark_skipped(). */
	KUNIT_EXPECT_EQ(test, test->status, KUNIT_SKIPPED);
}

static void selftest_msg(struct kunit *test)
{
	const char *s = "abc";

	KUNIT_EXPECT_STREQ_MSG(test, s, "abc", "%s", "streq");
	KUNIT_EXPECT_STRNEQ_MSG(test, s, "abd", "%s", "strneq");
	KUNIT_ASSERT_LE_MSG(test, 1, 2, "%d", 1);
	KUNIT_ASSERT_PTR_NE_MSG(test, s, NULL, "%p", s);
	KUNIT_EXPECT_NOT_ERR_OR_NULL_MSG(test, s, "%s", s);
}

static int order[4], norder;

static int counter_init(struct kunit_resource *res, void *context)
{
	res->data = context;
	return 0;
}

static void counter_free(struct kunit_resource *res)
{
	order[norder++] = *(int *)res->data;
}

static int one = 1, two = 2, three = 3;

static void selftest_resources(struct kunit *test)
{
	static struct kunit_resource named;
	struct kunit_resource *res;
	int *p = kunit_kzalloc(test, 4 * sizeof(*p), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, p);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, p[i], 0);
	kunit_kfree(test, p);

	norder = 0;
	KUNIT_ASSERT_PTR_EQ(test, kunit_alloc_resource(test, counter_init,
			    counter_free, GFP_KERNEL, &one), (void *)&one);
	KUNIT_ASSERT_PTR_EQ(test, kunit_alloc_resource(test, counter_init,
			    counter_free, GFP_KERNEL, &two), (void *)&two);
	KUNIT_ASSERT_EQ(test, kunit_add_named_resource(test, counter_init,
			counter_free, &named, "three", &three), 0);
	KUNIT_EXPECT_EQ(test, kunit_add_named_resource(test, counter_init,
			counter_free, &named, "three", &three), -EEXIST);

	res = kunit_find_named_resource(test, "three");
	KUNIT_ASSERT_PTR_EQ(test, res, &named);
	kunit_put_resource(res);

	/* Destroyed now: freed at once, not at the end. */
	KUNIT_EXPECT_EQ(test, kunit_destroy_resource(test,
			kunit_resource_instance_match, &one), 0);
	KUNIT_EXPECT_EQ(test, norder, 1);
	KUNIT_EXPECT_EQ(test, order[0], 1);
	KUNIT_EXPECT_EQ(test, kunit_destroy_resource(test,
			kunit_resource_instance_match, &one), -ENOENT);
}

/* The rest are freed when the case ends, after exit(). */
static void selftest_exit(struct kunit *test)
{
	exit_ran++;
}

static void selftest_exit_ran(struct kunit *test)
{
	/* Each case has a process of its own: exit() of others is unseen. */
	KUNIT_EXPECT_EQ(test, exit_ran, 0);
}

static struct kunit_case selftest_cases[] = {
	KUNIT_CASE_PARAM(selftest_param, squares_gen_params),
	KUNIT_CASE_PARAM(selftest_param_nodesc, plain_gen_params),
	KUNIT_CASE(selftest_skip),
	KUNIT_CASE(selftest_mark_skipped),
	KUNIT_CASE(selftest_msg),
	KUNIT_CASE(selftest_resources),
	KUNIT_CASE(selftest_exit_ran),
	{}
};

static struct kunit_suite selftest_suite = {
	.name = "kunit_selftest",
	.exit = selftest_exit,
	.test_cases = selftest_cases,
};

kunit_test_suites(&selftest_suite);
