// SPDX-License-Identifier: GPL-2.0
/*
 * explore-fast: the fast runtime's own primitives (fast/src, built with
 * KFAST_EXPLORE) as explorer scenarios, under sc and the weak-memory
 * model (#39).  This file and the runtime are built with GCC's
 * -fsanitize=thread, and the explorer's hooks (explore-tsan.c, built
 * with EXPLORE_TSAN_ATOMIC_POINTS) make every __atomic builtin a point
 * and a marked access with the order the code asked for; every plain
 * access is an event for the race detector.  A futex is the explorer's
 * blocking (explore-fast-glue.c).
 *
 *   explore-fast [-m sc|wmm] [-s dfs|dpor] [-k N] [-n N] [-t MS] [-x] NAME...
 *
 * -x: stop at the first failing schedule (the defect tests).
 *
 * Exit status 0 if every scenario named passed every schedule run, 1 if
 * one failed, 2 for a bad argument.  docs/fast-runtime.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kfast/kfast.h>
#include <linux/bug.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>

#include <shim/explore.h>

void kfast_explore_reset(void);

/*
 * fast_spin_counter: two tasks take the lock and add one to two counters
 * under it: a plain one (a lock that does not exclude is a data race on
 * it) and one of relaxed marked accesses (READ_ONCE, WRITE_ONCE: the
 * weak-memory model lets a read see an older store unless the lock's
 * acquire ordered it after the last holder's release: a lock that does
 * not order is a lost update there).  With KFAST_SPIN_TRIES 2 the
 * second locker reaches the slow path's exchange and the futex within
 * one preemption.
 */
struct spin_ctx {
	spinlock_t lock;
	/*
	 * In the next 8-byte word: the race detector's shadow merges a
	 * task's accesses to one word in one epoch, marked and plain, and
	 * then takes the lock word's marked accesses for plain ones.
	 */
	int plain __attribute__((aligned(8)));
	int once;
};

static struct spin_ctx spin_ctx;

static void *spin_setup(void)
{
	kfast_explore_reset();
	memset(&spin_ctx, 0, sizeof(spin_ctx));
	spin_lock_init(&spin_ctx.lock);
	return &spin_ctx;
}

static void spin_body(void *arg)
{
	struct spin_ctx *c = arg;

	spin_lock(&c->lock);
	c->plain++;
	WRITE_ONCE(c->once, READ_ONCE(c->once) + 1);
	spin_unlock(&c->lock);
}

static void spin_check(void *arg)
{
	struct spin_ctx *c = arg;

	SHIM_EXPLORE_CHECK(c->plain == 2, "plain counter %d (a lost update)", c->plain);
	SHIM_EXPLORE_CHECK(c->once == 2, "marked counter %d (a lost update)", c->once);
	SHIM_EXPLORE_CHECK(READ_ONCE(c->lock.val) == KFAST_SPIN_FREE,
			   "lock word %d after both unlocks", c->lock.val);
	SHIM_EXPLORE_CHECK(READ_ONCE(c->lock.sleepers) == 0,
			   "%d sleepers counted after both unlocks", c->lock.sleepers);
}

static unsigned long spin_fingerprint(void *arg)
{
	struct spin_ctx *c = arg;

	return (unsigned long)c->plain * 1000 + (unsigned long)c->once * 100 +
	       (unsigned long)c->lock.val * 10 + (unsigned long)c->lock.sleepers;
}

/*
 * fast_sleep_wake: the kernel's sleeper loop against a waker that sets
 * the condition and wakes it: set_current_state() (a store and a full
 * barrier) before the test, the waker's full barrier before its look at
 * the state.  A lost wake-up leaves the sleeper blocked on its futex
 * forever: the explorer's deadlock report.  The waker's plain store
 * before the condition must happen before the sleeper's plain read after
 * it (a data race otherwise).
 */
struct sleep_ctx {
	struct task_struct *sleeper;
	int cond;
	int data;
	int seen;
};

static struct sleep_ctx sleep_ctx;

static void *sleep_setup(void)
{
	kfast_explore_reset();
	memset(&sleep_ctx, 0, sizeof(sleep_ctx));
	sleep_ctx.sleeper = kfast_task_alloc("sleeper");
	return &sleep_ctx;
}

static void sleep_sleeper(void *arg)
{
	struct sleep_ctx *c = arg;

	kfast_task_attach(c->sleeper);
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(c->cond))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	c->seen = c->data;
}

static void sleep_waker(void *arg)
{
	struct sleep_ctx *c = arg;

	c->data = 42;
	smp_store_release(&c->cond, 1);
	wake_up_process(c->sleeper);
}

static void sleep_check(void *arg)
{
	struct sleep_ctx *c = arg;

	SHIM_EXPLORE_CHECK(c->seen == 42, "the sleeper read %d", c->seen);
	SHIM_EXPLORE_CHECK(READ_ONCE(c->sleeper->__state) == TASK_RUNNING,
			   "the sleeper's state %u at its end", c->sleeper->__state);
}

static unsigned long sleep_fingerprint(void *arg)
{
	struct sleep_ctx *c = arg;

	return (unsigned long)c->seen;
}

/*
 * fast_refcount_saturate: two increments of a count one below
 * REFCOUNT_MAX.  Whichever comes second overflows: one warning, and the
 * count pinned at REFCOUNT_SATURATED (a put can no longer reach zero),
 * in every order; the saturation's store is a relaxed one after the
 * overflowing fetch_add, so the other task's increment cannot come
 * after it and unpin it (it came first).
 */
struct ref_ctx {
	refcount_t r;
	unsigned long warnings;
};

static struct ref_ctx ref_ctx;

static void *ref_setup(void)
{
	kfast_explore_reset();
	refcount_set(&ref_ctx.r, REFCOUNT_MAX - 1);
	ref_ctx.warnings = kfast_warn_count();
	return &ref_ctx;
}

static void ref_body(void *arg)
{
	struct ref_ctx *c = arg;

	refcount_inc(&c->r);
}

static void ref_check(void *arg)
{
	struct ref_ctx *c = arg;
	int v = (int)refcount_read(&c->r);
	unsigned long w = kfast_warn_count() - c->warnings;

	SHIM_EXPLORE_CHECK(v == REFCOUNT_SATURATED, "count %d, not saturated", v);
	SHIM_EXPLORE_CHECK(w == 1, "%lu warnings, not 1", w);
	/* A put of a saturated count stays saturated (and warns). */
	SHIM_EXPLORE_CHECK(!refcount_dec_and_test(&c->r), "a put freed it");
	SHIM_EXPLORE_CHECK((int)refcount_read(&c->r) == REFCOUNT_SATURATED,
			   "count %d after a put", (int)refcount_read(&c->r));
}

static unsigned long ref_fingerprint(void *arg)
{
	struct ref_ctx *c = arg;

	return (unsigned int)refcount_read(&c->r);
}

/*
 * fast_warn_count: two tasks hit the same WARN() site.  Both are
 * counted (kfast_warn_count() is the only way a program learns of a
 * misuse the runtime survives); the site's once flag is theirs to race
 * on with an exchange, so one prints at most.
 */
static unsigned long warn_before;

static void *warn_setup(void)
{
	kfast_explore_reset();
	warn_before = kfast_warn_count();
	return &warn_before;
}

static void warn_site(void)
{
	WARN(1, "explore-fast: a warning from two tasks (expected)\n");
}

static void warn_body(void *arg)
{
	(void)arg;
	warn_site();
}

static void warn_check(void *arg)
{
	unsigned long w = kfast_warn_count() - *(unsigned long *)arg;

	SHIM_EXPLORE_CHECK(w == 2, "%lu warnings counted, not 2", w);
}

static unsigned long warn_fingerprint(void *arg)
{
	return kfast_warn_count() - *(unsigned long *)arg;
}

static const struct shim_scenario scenarios[] = {
	{
		.name = "fast_spin_counter",
		.setup = spin_setup,
		.body = { spin_body, spin_body },
		.check = spin_check,
		.fingerprint = spin_fingerprint,
	}, {
		.name = "fast_sleep_wake",
		.setup = sleep_setup,
		.body = { sleep_sleeper, sleep_waker },
		.check = sleep_check,
		.fingerprint = sleep_fingerprint,
	}, {
		.name = "fast_refcount_saturate",
		.setup = ref_setup,
		.body = { ref_body, ref_body },
		.check = ref_check,
		.fingerprint = ref_fingerprint,
	}, {
		.name = "fast_warn_count",
		.setup = warn_setup,
		.body = { warn_body, warn_body },
		.check = warn_check,
		.fingerprint = warn_fingerprint,
	},
};

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: explore-fast [-m sc|wmm] [-s dfs|dpor] [-k N] [-n N] [-t MS] [-x] NAME...\n"
	      "scenarios:", f);
	for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++)
		fprintf(f, " %s", scenarios[i].name);
	fputc('\n', f);
}

static bool number(const char *s, unsigned long *v)
{
	char *end;

	if (!*s)
		return false;
	*v = strtoul(s, &end, 10);
	return !*end;
}

int main(int argc, char **argv)
{
	struct shim_explore_opts o = {
		.strategy = SHIM_EXPLORE_DFS, .bound = 2, .iterate = true,
		.max_schedules = 20000, .max_ms = 60000,
	};
	static struct shim_explore_result r;
	unsigned long v, failed = 0;
	int c, i;
	size_t k;

	while ((c = getopt(argc, argv, "hm:s:k:n:t:x")) != -1) {
		switch (c) {
		case 'm':
			if (!strcmp(optarg, "sc"))
				o.model = SHIM_EXPLORE_MODEL_SC;
			else if (!strcmp(optarg, "wmm"))
				o.model = SHIM_EXPLORE_MODEL_WMM;
			else
				goto bad;
			break;
		case 's':
			if (!strcmp(optarg, "dfs"))
				o.strategy = SHIM_EXPLORE_DFS;
			else if (!strcmp(optarg, "dpor"))
				o.strategy = SHIM_EXPLORE_DPOR;
			else
				goto bad;
			break;
		case 'k':
			if (!number(optarg, &v))
				goto bad;
			o.bound = (unsigned int)v;
			break;
		case 'n':
			if (!number(optarg, &v) || !v)
				goto bad;
			o.max_schedules = v;
			break;
		case 't':
			if (!number(optarg, &v) || !v)
				goto bad;
			o.max_ms = (unsigned int)v;
			break;
		case 'x':
			o.stop_on_failure = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			goto bad;
		}
	}
	if (optind == argc)
		goto bad;
	for (i = optind; i < argc; i++) {
		for (k = 0; k < sizeof(scenarios) / sizeof(scenarios[0]); k++)
			if (!strcmp(argv[i], scenarios[k].name))
				break;
		if (k == sizeof(scenarios) / sizeof(scenarios[0]))
			goto bad;
	}
	for (i = optind; i < argc; i++) {
		for (k = 0; strcmp(argv[i], scenarios[k].name); k++)
			;
		failed += shim_explore(&scenarios[k], &o, &r) ? 1 : 0;
		if (r.fault)
			failed++;
	}
	return failed ? 1 : 0;
bad:
	usage(stderr);
	return 2;
}
