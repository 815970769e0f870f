// SPDX-License-Identifier: GPL-2.0
/*
 * Canaries for the race-hunting tools: each mode commits one bug that
 * the shim itself does not stop, so only the tool under test can report
 * it.  A tool run whose canary stays silent proves nothing about the
 * clean runs of the real suites (annotations hiding too much, a tool
 * option lost): ctest expects each canary's report.
 *
 *   tool-canary race       two tasks increment a plain int, no lock
 *   tool-canary inversion  spinlocks taken A->B, then B->A
 *   tool-canary uaf        a read from a kfree()d block
 *   tool-canary free-race  a task frees a block another is still reading
 */
#include <stdio.h>
#include <string.h>

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <shim/shim.h>

static atomic_t started = ATOMIC_INIT(0);

/*
 * Two tasks meet here before their racing accesses, so those overlap;
 * relaxed atomics give the tools no happens-before edge to hide them.
 */
static void meet(void)
{
	atomic_inc(&started);
	while (atomic_read(&started) < 2)
		yield();
}

static int counter;		/* deliberately unprotected */

static int racer(void *unused)
{
	int i;

	meet();
	for (i = 0; i < 1000; i++)
		counter++;
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

static void race(void)
{
	struct task_struct *t[2];
	int i;

	for (i = 0; i < 2; i++)
		t[i] = kthread_run(racer, NULL, "racer%d", i);
	for (i = 0; i < 2; i++)
		kthread_stop(t[i]);
	printf("counter=%d\n", counter);
}

static int *shared;
static atomic_t reads_done = ATOMIC_INIT(0);

static int reader(void *unused)
{
	int i, sum = 0;

	for (i = 0; i < 1000; i++)
		sum += shared[0];	/* no reference held: the bug */
	atomic_inc(&reads_done);
	while (!kthread_should_stop())
		msleep(1);
	return sum;
}

static void free_race(void)
{
	struct task_struct *t;

	shared = kmalloc(sizeof(*shared), GFP_KERNEL);
	if (!shared)
		return;
	shared[0] = 1;
	t = kthread_run(reader, NULL, "reader");
	/*
	 * The reads first, then the free, ordered in time only: kfree()
	 * tells the tools the block is new memory, so a read after it
	 * would be seen by none (DRD once stayed silent that way in CI).
	 */
	while (!atomic_read(&reads_done))
		yield();
	kfree(shared);	/* the poison write races with the reads */
	kthread_stop(t);
}

static DEFINE_SPINLOCK(lock_a);
static DEFINE_SPINLOCK(lock_b);

static void inversion(void)
{
	/* The shim's lockdep sees it too: expected, so the run goes on. */
	shim_expect_report("circular locking dependency");
	spin_lock(&lock_a);
	spin_lock(&lock_b);
	spin_unlock(&lock_b);
	spin_unlock(&lock_a);
	spin_lock(&lock_b);
	spin_lock(&lock_a);
	spin_unlock(&lock_a);
	spin_unlock(&lock_b);
}

static void uaf(void)
{
	int *p = kmalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return;
	*p = 1;
	kfree(p);
	/* A read leaves the poison intact: the shim's own check misses it. */
	printf("read %d\n", READ_ONCE(*p));
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (!strcmp(mode, "race"))
		race();
	else if (!strcmp(mode, "inversion"))
		inversion();
	else if (!strcmp(mode, "uaf"))
		uaf();
	else if (!strcmp(mode, "free-race"))
		free_race();
	else {
		fprintf(stderr, "usage: %s race|inversion|uaf|free-race\n", argv[0]);
		return 2;
	}
	printf("tool-canary: %s done\n", mode);
	return 0;
}
