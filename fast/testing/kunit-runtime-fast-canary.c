// SPDX-License-Identifier: GPL-2.0
/*
 * Canaries for the runner on the fast runtime (kunit-runtime-fast.c):
 * every case here must fail, each for the one problem it names, and the
 * last must pass, so the count shows each rule reports and nothing else
 * fails a case.
 */
#include <kunit/test.h>
#include <kfast/testing.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/klist.h>
#include <linux/sched.h>

static void canary_warn_fails_the_case(struct kunit *test)
{
	struct klist k;
	struct klist_node n = {};

	klist_init(&k, NULL, NULL);
	klist_add_tail(&n, &k);
	klist_del(&n);
	klist_del(&n);		/* a second delete: klist WARNs (on no list by now) */
}

static void canary_announced_warn_missing_fails_the_case(struct kunit *test)
{
	kfast_test_expect_warns(1);	/* and nothing WARNs */
}

static int sleep_until_stopped(void *data)
{
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

static void canary_running_kthread_fails_the_case(struct kunit *test)
{
	kthread_run(sleep_until_stopped, NULL, "canary");
}

static void canary_clean_case_passes(struct kunit *test)
{
	struct task_struct *t = kthread_run(sleep_until_stopped, NULL, "canary");

	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_EXPECT_EQ(test, kthread_stop(t), 0);
}

static struct kunit_case kfast_canary_cases[] = {
	KUNIT_CASE(canary_warn_fails_the_case),
	KUNIT_CASE(canary_announced_warn_missing_fails_the_case),
	KUNIT_CASE(canary_running_kthread_fails_the_case),
	KUNIT_CASE(canary_clean_case_passes),
	{}
};

static struct kunit_suite kfast_canary_suite = {
	.name = "kfast_runtime_canary",
	.test_cases = kfast_canary_cases,
};

kunit_test_suite(kfast_canary_suite);
