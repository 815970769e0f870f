// SPDX-License-Identifier: GPL-2.0
/*
 * The guarded allocator (shim/src/guard.c): the first read or write of a
 * freed block, or past a block's end, is reported at once with the
 * block's sites, as the kernel's KFENCE does; a correct program is not
 * reported; a fault outside guarded memory still crashes.  In builds
 * where the guard is off (ASan, TSan, valgrind) the cases that need it
 * say so and pass: the tool reports these accesses there.
 */
#include <signal.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/wait.h>

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/kref.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <shim/shim.h>

#define POISON32	0x6b6b6b6bU	/* what a freed block reads once reported */

static bool guard_on(struct kunit *test)
{
	if (shim_guard_mode() == SHIM_GUARD_ALL)
		return true;
	kunit_info(test, "guarded allocator off in this build: case not run\n");
	return false;
}

/* Runs @fn in a child; returns its report's title ("" if it passed). */
static bool child_reports(struct kunit *test, void (*fn)(void *), void *arg,
			  char *title, size_t len)
{
	int failed = shim_run_in_child(fn, arg, title, len);

	KUNIT_EXPECT_EQ_MSG(test, failed, 1, "the child passed: nothing was reported");
	return failed == 1;
}

static noinline unsigned int read_freed(void *unused)
{
	unsigned int *p = kmalloc(32, GFP_KERNEL);
	unsigned int v;

	kfree(p);
	v = READ_ONCE(p[2]);	/* the bug: offset 8 of a 32-byte block */
	return v;
}

static void read_freed_fn(void *unused)
{
	read_freed(NULL);
}

/* The first read of a freed block is reported, once, and execution goes on. */
static void shim_guard_read_after_free_reported(struct kunit *test)
{
	unsigned int *p;

	if (!guard_on(test))
		return;
	p = kmalloc(32, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_TRUE(test, shim_is_guarded(p));
	kfree(p);
	shim_expect_report("BUG: KFENCE: use-after-free read in");
	KUNIT_EXPECT_EQ(test, READ_ONCE(p[3]), POISON32);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
	/* The page is open again now: a second access is not reported. */
	KUNIT_EXPECT_EQ(test, READ_ONCE(p[0]), POISON32);
	KUNIT_EXPECT_TRUE(test, shim_is_freed(p));
}

/* Unexpected, it fails the test, and the title says where and what. */
static void shim_guard_report_names_sites(struct kunit *test)
{
	char title[600];

	if (!guard_on(test) || !child_reports(test, read_freed_fn, NULL, title,
					      sizeof(title)))
		return;
	KUNIT_EXPECT_TRUE_MSG(test, strstr(title, "BUG: KFENCE: use-after-free read in read_freed"),
			      "title: %s", title);
	KUNIT_EXPECT_TRUE_MSG(test, strstr(title, "offset 8 of a 32-byte block"),
			      "title: %s", title);
	KUNIT_EXPECT_TRUE_MSG(test, strstr(title, "allocated at ") &&
			      strstr(title, "shim-guard-test.c:"), "title: %s", title);
	KUNIT_EXPECT_TRUE_MSG(test, strstr(title, ", freed at "), "title: %s", title);
}

static void shim_guard_write_after_free_reported(struct kunit *test)
{
	unsigned long *p;

	if (!guard_on(test))
		return;
	p = kzalloc(4 * sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	kfree(p);
	shim_expect_report("BUG: KFENCE: use-after-free write in");
	WRITE_ONCE(p[1], 7);	/* the bug */
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
}

/* The byte after a block is on the guard page. */
static void shim_guard_read_past_end_reported(struct kunit *test)
{
	unsigned char *p;

	if (!guard_on(test))
		return;
	p = kmalloc(16, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	shim_expect_report("BUG: KFENCE: out-of-bounds read past a 16-byte block in");
	KUNIT_EXPECT_EQ(test, READ_ONCE(p[16]), 0);	/* the bug */
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
	kfree(p);
}

/* So is the byte after a block of several pages. */
static void shim_guard_large_block_overflow_reported(struct kunit *test)
{
	size_t size = 3 * 4096 + 64;
	unsigned char *p;

	if (!guard_on(test))
		return;
	p = kmalloc(size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_TRUE(test, shim_is_guarded(p + size - 1));
	memset(p, 1, size);
	shim_expect_report("out-of-bounds write past a 12352-byte block in");
	WRITE_ONCE(p[size + 8], 1);	/* the bug */
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
	kfree(p);
	shim_expect_report("use-after-free read in");
	KUNIT_EXPECT_EQ(test, READ_ONCE(p[4096]), 0x6b);
}

/* A write just before a block lands on its page's canary: found at kfree. */
static void shim_guard_underflow_write_found_at_kfree(struct kunit *test)
{
	unsigned char *p;

	if (!guard_on(test))
		return;
	p = kmalloc(16, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	p[-1] = 0;	/* the bug */
	shim_expect_report("out-of-bounds write before a 16-byte block");
	kfree(p);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
}

struct guard_obj {
	struct kref ref;
	int payload;
};

static void guard_obj_release(struct kref *ref)
{
	kfree(container_of(ref, struct guard_obj, ref));
}

/* The example: a get then a put leaves the poison as it was. */
static void kref_on_freed_object(void *unused)
{
	struct guard_obj *o = kzalloc(sizeof(*o), GFP_KERNEL);

	kref_init(&o->ref);
	kref_put(&o->ref, guard_obj_release);
	kref_get(&o->ref);	/* the bug */
	kref_put(&o->ref, guard_obj_release);
}

static void kref_on_freed_object_unguarded(void *unused)
{
	shim_guard_set_mode(SHIM_GUARD_OFF);
	kref_on_freed_object(NULL);
}

static void shim_guard_kref_on_freed_object_reported(struct kunit *test)
{
	char title[600];

	if (!guard_on(test))
		return;
	/*
	 * Without the guard only refcount_t's own check sees it, by the free
	 * poison in the counter; the guard reports the first read itself.
	 */
	KUNIT_EXPECT_EQ(test, shim_run_in_child(kref_on_freed_object_unguarded, NULL,
						title, sizeof(title)), 1);
	KUNIT_EXPECT_TRUE_MSG(test, strstr(title, "refcount_t: "), "title: %s", title);
	if (!child_reports(test, kref_on_freed_object, NULL, title, sizeof(title)))
		return;
	KUNIT_EXPECT_TRUE_MSG(test, strstr(title, "BUG: KFENCE: use-after-free read in __shim_refcount_"),
			      "title: %s", title);
	KUNIT_EXPECT_TRUE_MSG(test, strstr(title, "offset 0 of a 8-byte block"),
			      "title: %s", title);
}

/* Every size, every byte used, every allocator: no report. */
static void shim_guard_correct_program_not_reported(struct kunit *test)
{
	static const size_t sizes[] = { 1, 7, 8, 13, 16, 100, 4095, 4096, 4097, 20000 };
	unsigned char *p[ARRAY_SIZE(sizes)];
	unsigned int *arr;
	char *s;
	size_t i, j;

	if (!guard_on(test))
		return;
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		p[i] = kmalloc(sizes[i], GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, p[i]);
		KUNIT_EXPECT_TRUE(test, shim_is_guarded(p[i]));
		KUNIT_EXPECT_EQ(test, (uintptr_t)p[i] % 8, (uintptr_t)0);
		/* The block ends within 7 bytes of its page's end. */
		KUNIT_EXPECT_LT(test, (uintptr_t)(-(uintptr_t)(p[i] + sizes[i])) % 4096,
				(uintptr_t)8);
		for (j = 0; j < sizes[i]; j++)
			p[i][j] = j;
	}
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		for (j = 0; j < sizes[i]; j++)
			KUNIT_ASSERT_EQ(test, p[i][j], (unsigned char)j);
		kfree(p[i]);
		KUNIT_EXPECT_TRUE(test, shim_is_freed(p[i]));
	}
	arr = kcalloc(1000, sizeof(*arr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, arr);
	for (j = 0; j < 1000; j++)
		KUNIT_EXPECT_EQ(test, arr[j], 0U);
	kfree(arr);
	s = kstrdup("guarded", GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_EXPECT_STREQ(test, s, "guarded");
	KUNIT_EXPECT_EQ(test, strlen(s), (size_t)7);
	kfree(s);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 0);
}

static int read_freed_thread(void *data)
{
	unsigned int *p = data;

	READ_ONCE(p[0]);	/* the bug, on a task thread */
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

/* The handler works on task threads (their own signal stacks). */
static void shim_guard_read_in_kthread_reported(struct kunit *test)
{
	struct task_struct *t;
	unsigned int *p;

	if (!guard_on(test))
		return;
	p = kmalloc(64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	kfree(p);
	shim_expect_report("BUG: KFENCE: use-after-free read in read_freed_thread");
	t = kthread_run(read_freed_thread, p, "guard-reader");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	kthread_stop(t);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
}

static void shim_guard_bad_frees_reported(struct kunit *test)
{
	char *p;

	if (!guard_on(test))
		return;
	p = kmalloc(24, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	shim_expect_report("not a kmalloc block");
	kfree(p + 8);
	shim_expect_report("double free");
	kfree(p);
	kfree(p);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 2);
}

static noinline int recurse(int n)
{
	volatile char pad[256];

	pad[0] = n;
	return n ? recurse(n + 1) + pad[0] : 0;
}

static int overflow_stack(void *unused)
{
	return recurse(1);
}

/* Forks: the child, dying of @sig, is the pass. */
static void expect_death_by(struct kunit *test, void (*fn)(void), int sig)
{
	int status = 0;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	KUNIT_ASSERT_GE(test, pid, 0);
	if (pid == 0) {
		fn();
		_exit(0);
	}
	waitpid(pid, &status, 0);
	KUNIT_EXPECT_TRUE_MSG(test, WIFSIGNALED(status) && WTERMSIG(status) == sig,
			      "child status %#x, wanted death by signal %d", status, sig);
}

static void stray_write(void)
{
	volatile uintptr_t bad = 16;

	kfree(kmalloc(8, GFP_KERNEL));	/* the handler is installed */
	*(volatile int *)bad = 1;
}

static void kthread_stack_overflow(void)
{
	kthread_run(overflow_stack, NULL, "guard-overflow");
	msleep(10000);
}

/* A fault outside guarded memory is a crash, in any thread. */
static void shim_guard_stray_fault_still_crashes(struct kunit *test)
{
	if (!guard_on(test))
		return;
	expect_death_by(test, stray_write, SIGSEGV);
	expect_death_by(test, kthread_stack_overflow, SIGSEGV);
}

/* When every slot is live, blocks fall back to the unguarded allocator. */
static void shim_guard_pool_exhaustion_falls_back(struct kunit *test)
{
	enum { MAX = 1 << 16 };
	void **p = kunit_kcalloc(test, MAX, sizeof(*p), GFP_KERNEL);
	int n, i;

	if (!guard_on(test))
		return;
	KUNIT_ASSERT_NOT_NULL(test, p);
	for (n = 0; n < MAX; n++) {
		p[n] = kmalloc(8, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, p[n]);
		if (!shim_is_guarded(p[n]))
			break;
	}
	KUNIT_EXPECT_LT(test, n, (int)MAX);
	for (i = 0; i <= n && i < MAX; i++)
		kfree(p[i]);
	/* Freed slots are reused, oldest first: guarded again. */
	p[0] = kmalloc(8, GFP_KERNEL);
	KUNIT_EXPECT_TRUE(test, shim_is_guarded(p[0]));
	kfree(p[0]);
}

/* SHIM_GUARD=sample guards one block in 64. */
static void shim_guard_sample_mode(struct kunit *test)
{
	void *p[640];
	int i, guarded = 0;

	if (!guard_on(test))
		return;
	KUNIT_ASSERT_EQ(test, shim_guard_set_mode(SHIM_GUARD_SAMPLE), SHIM_GUARD_SAMPLE);
	for (i = 0; i < 640; i++) {
		p[i] = kmalloc(8, GFP_KERNEL);
		guarded += shim_is_guarded(p[i]);
	}
	for (i = 0; i < 640; i++)
		kfree(p[i]);
	shim_guard_set_mode(SHIM_GUARD_ALL);
	KUNIT_EXPECT_EQ(test, guarded, 10);
}

static struct kunit_case shim_guard_test_cases[] = {
	KUNIT_CASE(shim_guard_read_after_free_reported),
	KUNIT_CASE(shim_guard_report_names_sites),
	KUNIT_CASE(shim_guard_write_after_free_reported),
	KUNIT_CASE(shim_guard_read_past_end_reported),
	KUNIT_CASE(shim_guard_large_block_overflow_reported),
	KUNIT_CASE(shim_guard_underflow_write_found_at_kfree),
	KUNIT_CASE(shim_guard_kref_on_freed_object_reported),
	KUNIT_CASE(shim_guard_correct_program_not_reported),
	KUNIT_CASE(shim_guard_read_in_kthread_reported),
	KUNIT_CASE(shim_guard_bad_frees_reported),
	KUNIT_CASE(shim_guard_stray_fault_still_crashes),
	KUNIT_CASE(shim_guard_pool_exhaustion_falls_back),
	KUNIT_CASE(shim_guard_sample_mode),
	{}
};

static struct kunit_suite shim_guard_test_suite = {
	.name = "shim_guard",
	.test_cases = shim_guard_test_cases,
};

kunit_test_suites(&shim_guard_test_suite);
