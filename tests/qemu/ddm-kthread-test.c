// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel-only KUnit suite for the ddm binding core: kthreads register and
 * unregister devices and drivers on one bus at the same time, while
 * another walks the bus.
 *
 * What is checked:
 *  - a driver callback runs with the device lock held, and never two at
 *    once for one device;
 *  - a device is never probed while bound, and ->remove() is called for
 *    the driver that is bound, once;
 *  - once ddm_device_unregister() returns the device is unbound and stays
 *    so; once ddm_driver_unregister() returns no device is bound to the
 *    driver;
 *  - every bind is undone and every device is released, unbound;
 *  - a device and a driver registered at the same time always end up
 *    bound (D2: a device joins the bus list before it is probed, so the
 *    driver sees it either way).
 */

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/ddm.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

/*
 * dkt_: this file's own fixture, not ddm-test-fixture.h's: its callbacks
 * check, per device, what only holds when nothing binds by hand (one
 * callback at a time, ->remove for the driver that probed, no probe
 * while bound), over devices numbered without bound, on a bus without
 * a match callback.
 */

#define DKT_DEV_THREADS	2
#define DKT_DRV_THREADS	2
#define DKT_OWNED_MAX	12
#define DKT_RUN_MS	3000
#define DKT_RACE_DEVS	8
#define DKT_RACE_ROUNDS	20

struct dkt_ctx {
	struct ddm_bus bus;
	struct ddm_driver drv[DKT_DRV_THREADS];
	atomic_t allocs;
	atomic_t frees;
	atomic_t probes;
	atomic_t removes;
	atomic_t walks;
	atomic_t registers;
	atomic_t unregisters;
	/* errors */
	atomic_t unlocked_calls;
	atomic_t concurrent_calls;
	atomic_t probe_while_bound;
	atomic_t bad_remove;
	atomic_t bound_after_unregister;
	atomic_t drv_bound_after_unregister;
	atomic_t freed_bound;
	atomic_t failed_calls;
};

struct dkt_dev {
	struct ddm_device dev;
	struct dkt_ctx *ctx;
	int id;
	atomic_t in_callback;
	/* the driver the callbacks saw bind; changed under the device lock */
	struct ddm_driver *bound;
};

struct dkt_thread {
	struct dkt_ctx *ctx;
	struct task_struct *task;
	int idx;
	u32 rnd;
	int nr_owned;
	struct dkt_dev *owned[DKT_OWNED_MAX];
};

static u32 dkt_rand(struct dkt_thread *t, u32 below)
{
	t->rnd ^= t->rnd << 13;
	t->rnd ^= t->rnd >> 17;
	t->rnd ^= t->rnd << 5;
	return t->rnd % below;
}

static struct dkt_dev *to_dkt_dev(struct ddm_device *dev)
{
	return container_of(dev, struct dkt_dev, dev);
}

static void dkt_enter(struct dkt_dev *d)
{
	if (!mutex_is_locked(&d->dev.mutex))
		atomic_inc(&d->ctx->unlocked_calls);
	if (atomic_inc_return(&d->in_callback) != 1)
		atomic_inc(&d->ctx->concurrent_calls);
}

static void dkt_leave(struct dkt_dev *d)
{
	atomic_dec(&d->in_callback);
}

static int dkt_probe(struct ddm_device *dev)
{
	struct dkt_dev *d = to_dkt_dev(dev);
	int ret = 0;

	dkt_enter(d);
	if (d->bound)
		atomic_inc(&d->ctx->probe_while_bound);
	/* the second driver turns every third device down */
	if (dev->driver == &d->ctx->drv[1] && d->id % 3 == 0) {
		ret = -ENODEV;
	} else {
		d->bound = dev->driver;
		atomic_inc(&d->ctx->probes);
	}
	dkt_leave(d);
	return ret;
}

static void dkt_remove(struct ddm_device *dev)
{
	struct dkt_dev *d = to_dkt_dev(dev);

	dkt_enter(d);
	if (d->bound != dev->driver)
		atomic_inc(&d->ctx->bad_remove);
	d->bound = NULL;
	atomic_inc(&d->ctx->removes);
	dkt_leave(d);
}

static void dkt_release(struct ddm_device *dev)
{
	struct dkt_dev *d = to_dkt_dev(dev);
	struct dkt_ctx *ctx = d->ctx;

	if (d->bound || dev->driver)
		atomic_inc(&ctx->freed_bound);
	kfree(d);
	atomic_inc(&ctx->frees);
}

static void dkt_init(struct kunit *test, struct dkt_ctx *ctx)
{
	int i;

	ctx->bus.name = "ddm_kthread";
	KUNIT_ASSERT_EQ(test, ddm_bus_register(&ctx->bus), 0);
	for (i = 0; i < DKT_DRV_THREADS; i++) {
		ctx->drv[i].name = i ? "ddm_kthread_drv1" : "ddm_kthread_drv0";
		ctx->drv[i].bus = &ctx->bus;
		ctx->drv[i].probe = dkt_probe;
		ctx->drv[i].remove = dkt_remove;
	}
}

static struct dkt_dev *dkt_new_dev(struct dkt_ctx *ctx, int id)
{
	struct dkt_dev *d = kzalloc(sizeof(*d), GFP_KERNEL);

	if (!d)
		return NULL;
	d->dev.name = "ddm_kthread_dev";
	d->dev.bus = &ctx->bus;
	d->dev.release = dkt_release;
	d->ctx = ctx;
	d->id = id;
	atomic_inc(&ctx->allocs);
	return d;
}

static void dkt_unregister_dev(struct dkt_ctx *ctx, struct dkt_dev *d)
{
	ddm_get_device(&d->dev);
	ddm_device_unregister(&d->dev);
	atomic_inc(&ctx->unregisters);
	/* nothing may bind it any more */
	ddm_device_lock(&d->dev);
	if (d->bound || d->dev.driver || ddm_device_is_bound(&d->dev))
		atomic_inc(&ctx->bound_after_unregister);
	ddm_device_unlock(&d->dev);
	ddm_put_device(&d->dev);
}

static int dkt_dev_thread(void *data)
{
	struct dkt_thread *t = data;
	struct dkt_ctx *ctx = t->ctx;
	struct dkt_dev *d;
	int i, id = 0;

	while (!kthread_should_stop()) {
		if (t->nr_owned < DKT_OWNED_MAX &&
		    (!t->nr_owned || dkt_rand(t, 2))) {
			d = dkt_new_dev(ctx, id++);
			if (!d) {
				cond_resched();
				continue;
			}
			if (ddm_device_register(&d->dev)) {
				atomic_inc(&ctx->failed_calls);
				ddm_put_device(&d->dev);
				continue;
			}
			atomic_inc(&ctx->registers);
			t->owned[t->nr_owned++] = d;
		} else {
			i = dkt_rand(t, t->nr_owned);
			d = t->owned[i];
			t->owned[i] = t->owned[--t->nr_owned];
			dkt_unregister_dev(ctx, d);
		}
		cond_resched();
	}
	while (t->nr_owned)
		dkt_unregister_dev(ctx, t->owned[--t->nr_owned]);
	return 0;
}

static int dkt_count_dev(struct ddm_device *dev, void *data)
{
	(*(int *)data)++;
	return 0;
}

static int dkt_drv_thread(void *data)
{
	struct dkt_thread *t = data;
	struct dkt_ctx *ctx = t->ctx;
	struct ddm_driver *drv = &ctx->drv[t->idx];
	int bound;

	while (!kthread_should_stop()) {
		if (ddm_driver_register(drv)) {
			atomic_inc(&ctx->failed_calls);
			break;
		}
		/* Now and then stay registered a while, for devices to bind. */
		if (dkt_rand(t, 2))
			usleep_range(100, 500);
		ddm_driver_unregister(drv);
		bound = 0;
		ddm_driver_for_each_device(drv, NULL, &bound, dkt_count_dev);
		if (bound)
			atomic_inc(&ctx->drv_bound_after_unregister);
		cond_resched();
	}
	return 0;
}

static int dkt_walk_one(struct ddm_device *dev, void *data)
{
	struct dkt_dev *d = to_dkt_dev(dev);

	/* the walk pins the device: it must not have been released */
	if (d->ctx != data)
		atomic_inc(&((struct dkt_ctx *)data)->failed_calls);
	return 0;
}

static int dkt_walker(void *data)
{
	struct dkt_thread *t = data;
	struct dkt_ctx *ctx = t->ctx;

	while (!kthread_should_stop()) {
		ddm_bus_for_each_dev(&ctx->bus, NULL, ctx, dkt_walk_one);
		atomic_inc(&ctx->walks);
		cond_resched();
	}
	return 0;
}

static void dkt_check(struct kunit *test, struct dkt_ctx *ctx)
{
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->unlocked_calls), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->concurrent_calls), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->probe_while_bound), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->bad_remove), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->bound_after_unregister), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->drv_bound_after_unregister), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->freed_bound), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->failed_calls), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->probes),
			atomic_read(&ctx->removes));
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->allocs),
			atomic_read(&ctx->frees));
}

static void ddm_kthread_register_unregister(struct kunit *test)
{
	struct dkt_thread *th;
	struct dkt_ctx *ctx;
	int i, nr = DKT_DEV_THREADS + DKT_DRV_THREADS + 1;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	th = kunit_kcalloc(test, nr, sizeof(*th), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, th);
	dkt_init(test, ctx);

	for (i = 0; i < nr; i++) {
		int (*fn)(void *) = dkt_walker;

		th[i].ctx = ctx;
		th[i].rnd = 0x2545f491u * (i + 1);
		if (i < DKT_DEV_THREADS) {
			fn = dkt_dev_thread;
			th[i].idx = i;
		} else if (i < DKT_DEV_THREADS + DKT_DRV_THREADS) {
			fn = dkt_drv_thread;
			th[i].idx = i - DKT_DEV_THREADS;
		}
		th[i].task = kthread_run(fn, &th[i], "dkt/%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(th[i].task));
		get_task_struct(th[i].task);
	}
	/*
	 * The length of the run, nothing to wait for: the threads race
	 * until told to stop, and every check is made after they have.
	 */
	msleep(DKT_RUN_MS);
	for (i = 0; i < nr; i++) {
		KUNIT_EXPECT_EQ(test, kthread_stop(th[i].task), 0);
		put_task_struct(th[i].task);
	}

	kunit_info(test, "registers %d unregisters %d probes %d walks %d\n",
		   atomic_read(&ctx->registers), atomic_read(&ctx->unregisters),
		   atomic_read(&ctx->probes), atomic_read(&ctx->walks));
	dkt_check(test, ctx);
	KUNIT_EXPECT_GT(test, atomic_read(&ctx->probes), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->registers),
			atomic_read(&ctx->unregisters));
	ddm_bus_unregister(&ctx->bus);
	KUNIT_EXPECT_FALSE(test, ddm_bus_is_registered(&ctx->bus));
}

/* D2: a device and a driver registered at once always bind. */

struct dkt_race {
	struct dkt_ctx *ctx;
	struct dkt_dev *devs[DKT_RACE_DEVS];
	struct completion go;
	struct completion devs_done;
	struct completion drv_done;
	int drv_ret;
};

static int dkt_race_devs(void *data)
{
	struct dkt_race *r = data;
	int i;

	wait_for_completion(&r->go);
	for (i = 0; i < DKT_RACE_DEVS; i++)
		if (ddm_device_register(&r->devs[i]->dev))
			atomic_inc(&r->ctx->failed_calls);
	complete(&r->devs_done);
	return 0;
}

static int dkt_race_drv(void *data)
{
	struct dkt_race *r = data;

	wait_for_completion(&r->go);
	r->drv_ret = ddm_driver_register(&r->ctx->drv[0]);
	complete(&r->drv_done);
	return 0;
}

static int dkt_count_bound(struct ddm_device *dev, void *data)
{
	if (ddm_device_is_bound(dev))
		(*(int *)data)++;
	return 0;
}

static void ddm_kthread_register_race(struct kunit *test)
{
	struct task_struct *a, *b;
	struct dkt_race *r;
	struct dkt_ctx *ctx;
	int round, i, bound, unbound_rounds = 0;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	dkt_init(test, ctx);
	r->ctx = ctx;

	for (round = 0; round < DKT_RACE_ROUNDS; round++) {
		for (i = 0; i < DKT_RACE_DEVS; i++) {
			r->devs[i] = dkt_new_dev(ctx, 3 * i + 1);
			KUNIT_ASSERT_NOT_NULL(test, r->devs[i]);
		}
		init_completion(&r->go);
		init_completion(&r->devs_done);
		init_completion(&r->drv_done);
		a = kthread_run(dkt_race_devs, r, "dkt-race-dev");
		KUNIT_ASSERT_FALSE(test, IS_ERR(a));
		b = kthread_run(dkt_race_drv, r, "dkt-race-drv");
		KUNIT_ASSERT_FALSE(test, IS_ERR(b));
		complete_all(&r->go);
		wait_for_completion(&r->devs_done);
		wait_for_completion(&r->drv_done);
		KUNIT_EXPECT_EQ(test, r->drv_ret, 0);

		bound = 0;
		ddm_bus_for_each_dev(&ctx->bus, NULL, &bound, dkt_count_bound);
		if (bound != DKT_RACE_DEVS)
			unbound_rounds++;

		ddm_driver_unregister(&ctx->drv[0]);
		for (i = 0; i < DKT_RACE_DEVS; i++)
			ddm_device_unregister(&r->devs[i]->dev);
	}
	KUNIT_EXPECT_EQ(test, unbound_rounds, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->probes),
			DKT_RACE_ROUNDS * DKT_RACE_DEVS);
	dkt_check(test, ctx);
	ddm_bus_unregister(&ctx->bus);
}

static struct kunit_case ddm_kthread_cases[] = {
	KUNIT_CASE(ddm_kthread_register_unregister),
	KUNIT_CASE(ddm_kthread_register_race),
	{}
};

static struct kunit_suite ddm_kthread_suite = {
	.name = "ddm_kthread",
	.test_cases = ddm_kthread_cases,
};
kunit_test_suite(ddm_kthread_suite);

MODULE_DESCRIPTION("klist-port: ddm devices and drivers registered by kthreads");
MODULE_LICENSE("GPL");
