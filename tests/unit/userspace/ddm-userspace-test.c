// SPDX-License-Identifier: GPL-2.0
/*
 * ddm tests that need the shim: the D2 window driven with a controlled
 * interleaving (shim_on_unlock), concurrency with real threads, a probe
 * that sleeps, and the probe-failure messages in the log.  Misuse of
 * the API is in ddm-misuse-test.c.  Userspace only.
 */
#include <sched.h>
#include <kunit/test.h>
#include <linux/ddm.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/errno.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <shim/shim.h>
#include <shim/valgrind.h>

#include "../ddm-test-fixture.h"
#include "hook-window.h"

/* du_: this file's own helpers; the fixture's are fx_ (ddm-test-fixture.h). */

/* --- D2: the window the RFC left open ------------------------------------ */

/*
 * D2, the device nobody probed (RFC patches 7/8), in its own window.
 *
 * The RFC's bus_add_device() attached a new device to a driver first
 * and put it on the bus's device list after; bus_add_driver() did the
 * same for a new driver.  ddm-lessons-test.c shows the order; here the
 * window itself is driven:
 *
 *  1. the test registers X (a device, or a driver): its attach walks the
 *     bus's other list and finds no match;
 *  2. the moment that walk has taken its last step (the list lock
 *     released with nothing further found: shim_on_unlock), a kthread
 *     registers Y, the counterpart X matches, whose attach walks the
 *     list X should be on;
 *  3. under the RFC's order X is not there yet, Y finds nothing, X joins
 *     its list after both walks: X and Y never meet, and the device
 *     stays unbound although its driver is registered.
 *
 * The rule: join the bus list first, then probe; so in step 3 Y finds X.
 *
 * tests/defects/ddm/D2-bus-list-joined-after-probe.patch restores the
 * RFC's order, and both cases below fail.  They are one test run from
 * either side: a driver registering in a device's attach window, or a
 * device added in a driver's.
 */
struct du_window {
	struct ddm_device *armed_dev;	/* the match that arms the hook */
	struct ddm_driver *armed_drv;
	struct ddm_device *meet_dev;	/* the match that shows they met */
	struct ddm_driver *meet_drv;
	struct completion go, done;
	atomic_t armed, met, other_done;
	struct fx_dev *newdev;		/* what the other thread registers */
	struct fx_drv *newdrv;
	int ret;
};

/* Runs right after the list lock is dropped (no sleeping in here). */
static void du_window_hook(void *data)
{
	struct du_window *w = data;
	long end = shim_now_ms() + 2000;

	complete(&w->go);
	while (!atomic_read(&w->met) && !atomic_read(&w->other_done) &&
	       shim_now_ms() < end)
		sched_yield();
}

static void du_window_match(struct fx_ctx *c, struct ddm_device *dev,
			    struct ddm_driver *drv)
{
	struct du_window *w = c->priv;

	if (dev == w->meet_dev && drv == w->meet_drv)
		atomic_set(&w->met, 1);
	if (dev == w->armed_dev && drv == w->armed_drv &&
	    !atomic_xchg(&w->armed, 1))
		shim_on_unlock("&k->k_lock", du_window_hook, w);
}

static int du_window_thread(void *data)
{
	struct du_window *w = data;

	if (fx_wait_or_stop(&w->go)) {
		if (w->newdrv)
			w->ret = ddm_driver_register(&w->newdrv->drv);
		else
			w->ret = ddm_device_register(&w->newdev->dev);
		atomic_set(&w->other_done, 1);
		complete(&w->done);
	}
	fx_park();
	return 0;
}

/*
 * The device x and the driver b that matches it, one registered by the
 * test (x if @driver_second), the other by the kthread in the window of
 * the first one's attach.  That attach walks one other entry, which
 * does not match and arms the window: driver a for x, device "other"
 * for b.
 */
static void du_d2_window(struct kunit *test, bool driver_second)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *b = fx_drv_new(test, c, "fx-b", FX_ID(1));
	struct du_window *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct fx_dev *x = fx_dev_new(test, c, 1);
	struct fx_dev *other = NULL;
	struct fx_drv *a = NULL;
	struct task_struct *t;

	KUNIT_ASSERT_NOT_NULL(test, w);
	init_completion(&w->go);
	init_completion(&w->done);
	if (driver_second) {
		a = fx_drv_add(test, c, "fx-a", 0);	/* no match */
		w->armed_dev = &x->dev;
		w->armed_drv = &a->drv;
		w->newdrv = b;
	} else {
		other = fx_dev_add(test, c, 0);	/* b does not match */
		w->armed_dev = &other->dev;
		w->armed_drv = &b->drv;
		w->newdev = x;
	}
	w->meet_dev = &x->dev;
	w->meet_drv = &b->drv;
	c->priv = w;
	c->match_hook = du_window_match;
	t = kthread_run(du_window_thread, w, "du-d2-window");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));

	if (driver_second)
		KUNIT_ASSERT_EQ(test, ddm_device_register(&x->dev), 0);
	else
		KUNIT_ASSERT_EQ(test, ddm_driver_register(&b->drv), 0);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&w->done,
				msecs_to_jiffies(900)), 0UL);
	kthread_stop(t);
	c->match_hook = NULL;
	KUNIT_EXPECT_EQ(test, atomic_read(&w->armed), 1);
	KUNIT_EXPECT_EQ(test, w->ret, 0);
	KUNIT_EXPECT_PTR_EQ_MSG(test, x->dev.driver, &b->drv,
				"device %s left unbound although driver %s is registered",
				x->dev.name, b->drv.name);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->probes), 1);
	ddm_device_unregister(&x->dev);
	if (other)
		ddm_device_unregister(&other->dev);
	if (a)
		ddm_driver_unregister(&a->drv);
	ddm_driver_unregister(&b->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->removes),
			atomic_read(&b->probes));
	fx_teardown(test, c, other ? 2 : 1);
}

/* D2: a driver registering as a device's probe walk ends still binds it. */
static void ddm_d2_driver_registers_in_device_attach_window(struct kunit *test)
{
	du_d2_window(test, true);
}

/* D2: a device added as a driver's probe walk ends is still bound to it. */
static void ddm_d2_device_added_in_driver_attach_window(struct kunit *test)
{
	du_d2_window(test, false);
}

/* --- races ------------------------------------------------------------------ */

struct du_job {
	struct fx_ctx *c;
	struct completion *go;
	struct completion done;
	struct task_struct *task;
	int (*fn)(struct du_job *j);
	struct fx_drv *drv;
	struct fx_dev **devs;
	int first, count, ret;
};

static int du_job_thread(void *data)
{
	struct du_job *j = data;

	if (fx_wait_or_stop(j->go)) {
		j->ret = j->fn(j);
		complete(&j->done);
	}
	fx_park();
	return 0;
}

static void du_job_start(struct kunit *test, struct du_job *j,
			 struct fx_ctx *c, struct completion *go,
			 int (*fn)(struct du_job *j), const char *name)
{
	j->c = c;
	j->go = go;
	j->fn = fn;
	init_completion(&j->done);
	j->task = kthread_run(du_job_thread, j, "%s", name);
	KUNIT_ASSERT_FALSE(test, IS_ERR(j->task));
}

static void du_job_finish(struct kunit *test, struct du_job *j)
{
	/* Short waits: each must stay under the shim's hung-task bound. */
	int tries = 10;

	while (!wait_for_completion_timeout(&j->done, msecs_to_jiffies(500)))
		if (!--tries)
			break;
	KUNIT_EXPECT_GT_MSG(test, tries, 0, "job %s never finished",
			    j->task->comm);
	kthread_stop(j->task);
	KUNIT_EXPECT_EQ(test, j->ret, 0);
}

static int du_unregister_driver_job(struct du_job *j)
{
	ddm_driver_unregister(&j->drv->drv);
	return 0;
}

static int du_register_driver_job(struct du_job *j)
{
	return ddm_driver_register(&j->drv->drv);
}

static int du_unregister_devices_job(struct du_job *j)
{
	int i;

	for (i = j->first; i < j->first + j->count; i++)
		ddm_device_unregister(&j->devs[i]->dev);
	return 0;
}

static int du_register_devices_job(struct du_job *j)
{
	int i, ret;

	for (i = j->first; i < j->first + j->count; i++) {
		ret = ddm_device_register(&j->devs[i]->dev);
		if (ret)
			return ret;
	}
	return 0;
}

#define DU_ROUNDS	25	/* 5 under valgrind, which is 50x slower */
#define DU_RACE_DEVS	8

static int du_rounds(void)
{
	return shim_on_valgrind() ? DU_ROUNDS / 5 : DU_ROUNDS;
}

/*
 * One round of a race: @drv_fn on driver @a in one kthread, @devs_fn on
 * each half of @devs in two more, let go at once; wait for all three.
 */
static void du_race_round(struct kunit *test, struct fx_ctx *c,
			  struct fx_drv *a, struct fx_dev **devs,
			  int (*drv_fn)(struct du_job *j),
			  const char *drv_job,
			  int (*devs_fn)(struct du_job *j),
			  const char *devs_job)
{
	struct du_job jobs[3] = {};
	struct completion go;
	int i;

	init_completion(&go);
	jobs[0].drv = a;
	du_job_start(test, &jobs[0], c, &go, drv_fn, drv_job);
	for (i = 1; i < 3; i++) {
		jobs[i].devs = devs;
		jobs[i].first = (i - 1) * DU_RACE_DEVS / 2;
		jobs[i].count = DU_RACE_DEVS / 2;
		du_job_start(test, &jobs[i], c, &go, devs_fn, devs_job);
	}
	complete_all(&go);
	for (i = 0; i < 3; i++)
		du_job_finish(test, &jobs[i]);
}

/* A driver and its devices unregistered at once: one ->remove per device. */
static void ddm_race_driver_unregister_vs_device_unregister(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_dev *devs[DU_RACE_DEVS];
	int round, i;

	for (round = 0; round < du_rounds(); round++) {
		struct fx_drv *a = fx_drv_new(test, c, "fx-a", 0xff);

		KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
		for (i = 0; i < DU_RACE_DEVS; i++) {
			atomic_set(&c->id_removes[i], 0);
			devs[i] = fx_dev_add(test, c, i);
		}
		KUNIT_ASSERT_EQ(test, fx_bound(a), DU_RACE_DEVS);
		du_race_round(test, c, a, devs,
			      du_unregister_driver_job, "du-drv-unreg",
			      du_unregister_devices_job, "du-dev-unreg");

		for (i = 0; i < DU_RACE_DEVS; i++)
			KUNIT_EXPECT_EQ_MSG(test,
					    atomic_read(&c->id_removes[i]), 1,
					    "round %d, device %d", round, i);
		KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), DU_RACE_DEVS);
		KUNIT_EXPECT_EQ(test, fx_bound(a), 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&c->released),
				(round + 1) * DU_RACE_DEVS);
	}
	KUNIT_EXPECT_EQ(test, fx_on_bus(c), 0);
	fx_teardown(test, c, du_rounds() * DU_RACE_DEVS);
}

/* A driver registered while devices are added: none is left unbound. */
static void ddm_race_driver_register_vs_device_add(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_dev *devs[DU_RACE_DEVS];
	int round, i;

	for (round = 0; round < du_rounds(); round++) {
		struct fx_drv *a = fx_drv_new(test, c, "fx-a", 0xff);

		for (i = 0; i < DU_RACE_DEVS; i++) {
			atomic_set(&c->id_probes[i], 0);
			atomic_set(&c->id_removes[i], 0);
			devs[i] = fx_dev_new(test, c, i);
		}
		du_race_round(test, c, a, devs,
			      du_register_driver_job, "du-drv-reg",
			      du_register_devices_job, "du-dev-reg");

		for (i = 0; i < DU_RACE_DEVS; i++) {
			KUNIT_EXPECT_PTR_EQ_MSG(test, devs[i]->dev.driver,
						&a->drv, "round %d: %s unbound",
						round, devs[i]->dev.name);
			KUNIT_EXPECT_EQ_MSG(test,
					    atomic_read(&c->id_probes[i]), 1,
					    "round %d, device %d", round, i);
		}
		KUNIT_EXPECT_EQ(test, fx_bound(a), DU_RACE_DEVS);
		for (i = 0; i < DU_RACE_DEVS; i++)
			ddm_device_unregister(&devs[i]->dev);
		ddm_driver_unregister(&a->drv);
		for (i = 0; i < DU_RACE_DEVS; i++)
			KUNIT_EXPECT_EQ(test,
					atomic_read(&c->id_removes[i]), 1);
		KUNIT_EXPECT_EQ(test, atomic_read(&c->released),
				(round + 1) * DU_RACE_DEVS);
	}
	fx_teardown(test, c, du_rounds() * DU_RACE_DEVS);
}

/* Walks while devices come and go: every device handed out is alive. */
struct du_churn {
	struct fx_ctx *c;
	struct fx_drv *drv;
	atomic_t stop, bad, walks, seen;
	int first;
};

static int du_check_alive(struct ddm_device *dev, void *data)
{
	struct du_churn *s = data;
	struct fx_dev *d = to_fx_dev(dev);

	atomic_inc(&s->seen);
	/* A freed device reads as poison, not FX_MAGIC. */
	if (READ_ONCE(d->magic) != FX_MAGIC || !kref_read(&dev->kref))
		atomic_inc(&s->bad);
	return 0;
}

static int du_check_bound(struct ddm_device *dev, void *data)
{
	struct du_churn *s = data;

	du_check_alive(dev, data);
	/* A driver's walk only hands out devices still bound to it. */
	if (READ_ONCE(dev->driver) != &s->drv->drv)
		atomic_inc(&s->bad);
	return 0;
}

static int du_walker(void *data)
{
	struct du_churn *s = data;

	while (!atomic_read(&s->stop)) {
		ddm_bus_for_each_dev(&s->c->bus, NULL, s, du_check_alive);
		ddm_driver_for_each_device(&s->drv->drv, NULL, s,
					   du_check_bound);
		atomic_inc(&s->walks);
		yield();
	}
	fx_park();
	return 0;
}

/* 2 churners add and delete 4 devices a round: 800 (160 under valgrind). */
#define DU_CHURN_ROUNDS()	(4 * du_rounds())
#define DU_CHURN_DEVS()		(2 * 4 * DU_CHURN_ROUNDS())

struct du_churner {
	struct du_churn *s;
	int first;
	struct completion done;
};

static int du_churner_fn(void *data)
{
	struct du_churner *ch = data;
	struct fx_dev *d;
	int round, i;

	for (round = 0; round < DU_CHURN_ROUNDS(); round++) {
		for (i = ch->first; i < ch->first + 4; i++) {
			d = fx_dev_alloc(ch->s->c, i);
			if (!d || ddm_device_register(&d->dev)) {
				atomic_inc(&ch->s->bad);
				break;
			}
			/* Let a walker stand on it, now and then. */
			if ((round + i) % 3 == 0)
				yield();
			ddm_device_unregister(&d->dev);
		}
	}
	complete(&ch->done);
	fx_park();
	return 0;
}

static void ddm_race_walks_while_devices_come_and_go(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_new(test, c, "fx-a", 0x5555);
	struct du_churn s = { .c = c, .drv = a };
	struct du_churner ch[2];
	struct task_struct *walkers[2], *churners[2];
	int i, probes = 0, removes = 0;

	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	for (i = 0; i < 2; i++) {
		walkers[i] = kthread_run(du_walker, &s, "du-walker%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(walkers[i]));
	}
	for (i = 0; i < 2; i++) {
		ch[i].s = &s;
		ch[i].first = 4 * i;
		init_completion(&ch[i].done);
		churners[i] = kthread_run(du_churner_fn, &ch[i], "du-churn%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(churners[i]));
	}
	for (i = 0; i < 2; i++) {
		int tries = 20;

		while (!wait_for_completion_timeout(&ch[i].done,
						    msecs_to_jiffies(500)))
			if (!--tries)
				break;
		KUNIT_EXPECT_GT(test, tries, 0);
		kthread_stop(churners[i]);
	}
	atomic_set(&s.stop, 1);
	for (i = 0; i < 2; i++)
		kthread_stop(walkers[i]);

	KUNIT_EXPECT_EQ(test, atomic_read(&s.bad), 0);
	KUNIT_EXPECT_GT(test, atomic_read(&s.walks), 0);
	kunit_info(test, "%d walks saw %d devices", atomic_read(&s.walks),
		   atomic_read(&s.seen));
	for (i = 0; i < 8; i++) {
		probes += atomic_read(&c->id_probes[i]);
		removes += atomic_read(&c->id_removes[i]);
	}
	/* Even ids match: half of the devices were bound, once each. */
	KUNIT_EXPECT_EQ(test, probes, DU_CHURN_DEVS() / 2);
	KUNIT_EXPECT_EQ(test, removes, DU_CHURN_DEVS() / 2);
	KUNIT_EXPECT_EQ(test, fx_bound(a), 0);
	KUNIT_EXPECT_EQ(test, fx_on_bus(c), 0);
	ddm_driver_unregister(&a->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), DU_CHURN_DEVS() / 2);
	fx_teardown(test, c, DU_CHURN_DEVS());
}

/* --- a probe that sleeps ------------------------------------------------------ */

#define DU_PROBE_MS	300

/* The slow driver's probe: it says it has started, then takes its time. */
struct du_slow {
	struct completion in_probe;
	struct completion go;		/* the test lets the probe go on */
	atomic_t probe_done;
	int probe_done_at_suspend;
};

static void du_slow_probe(struct fx_drv *d, struct ddm_device *dev)
{
	struct du_slow *s = d->priv;

	complete(&s->in_probe);
	/*
	 * Held until the test has walked the bus: a walk that waited for
	 * the probe would hang behind it (the shim's hung-task report), or
	 * come back after this times out, with the probe done.  Then the
	 * sleep: a probe that takes a while, which suspend and unregister
	 * must wait for.
	 */
	wait_for_completion_timeout(&s->go, msecs_to_jiffies(10000));
	msleep(DU_PROBE_MS);
	atomic_set(&s->probe_done, 1);
}

static void du_slow_suspend(struct fx_drv *d, struct ddm_device *dev)
{
	struct du_slow *s = d->priv;

	s->probe_done_at_suspend = atomic_read(&s->probe_done);
}

struct du_reg {
	struct fx_dev *dev;
	struct completion done;
	int ret;
};

static int du_register_thread(void *data)
{
	struct du_reg *r = data;

	r->ret = ddm_device_register(&r->dev->dev);
	complete(&r->done);
	fx_park();
	return 0;
}

static struct task_struct *du_register_async(struct kunit *test,
					     struct du_reg *r, struct fx_dev *d)
{
	struct task_struct *t;

	r->dev = d;
	init_completion(&r->done);
	t = kthread_run(du_register_thread, r, "du-register");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	return t;
}

/*
 * While ->probe sleeps: walks go on; suspend waits for the probe; a
 * driver unregister waits for the probe's walk, then undoes the bind.
 */
static void ddm_probe_sleeps(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_new(test, c, "fx-slow", 0x3);
	struct du_slow *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	struct fx_dev *d0, *d1;
	struct task_struct *t;
	struct du_reg r;

	KUNIT_ASSERT_NOT_NULL(test, s);
	init_completion(&s->in_probe);
	init_completion(&s->go);
	a->probe_hook = du_slow_probe;
	a->suspend_hook = du_slow_suspend;
	a->priv = s;
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);

	/* 1: a walk of the bus does not wait; suspend does. */
	d0 = fx_dev_new(test, c, 0);
	t = du_register_async(test, &r, d0);
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&s->in_probe,
				msecs_to_jiffies(900)), 0UL);
	KUNIT_EXPECT_EQ(test, fx_on_bus(c), 1);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&s->probe_done), 0,
			    "the walk waited for the probe");
	complete_all(&s->go);
	KUNIT_EXPECT_EQ(test, ddm_device_suspend(&d0->dev), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->suspends), 1);
	KUNIT_EXPECT_EQ(test, s->probe_done_at_suspend, 1);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&r.done,
				msecs_to_jiffies(900)), 0UL);
	kthread_stop(t);
	KUNIT_EXPECT_EQ(test, r.ret, 0);
	KUNIT_EXPECT_PTR_EQ(test, d0->dev.driver, &a->drv);

	/* 2: unregister the driver while it probes the next device. */
	atomic_set(&s->probe_done, 0);
	reinit_completion(&s->in_probe);
	d1 = fx_dev_new(test, c, 1);
	t = du_register_async(test, &r, d1);
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&s->in_probe,
				msecs_to_jiffies(900)), 0UL);
	ddm_driver_unregister(&a->drv);
	/* It waited for the probe's walk to leave the driver. */
	KUNIT_EXPECT_EQ(test, atomic_read(&s->probe_done), 1);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&r.done,
				msecs_to_jiffies(900)), 0UL);
	kthread_stop(t);
	KUNIT_EXPECT_EQ(test, r.ret, 0);
	/* The bind that finished was undone: nothing bound to a gone driver. */
	KUNIT_EXPECT_NULL(test, d0->dev.driver);
	KUNIT_EXPECT_NULL(test, d1->dev.driver);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 2);
	KUNIT_EXPECT_EQ(test, fx_bound(a), 0);
	KUNIT_EXPECT_EQ(test, kref_read(&d1->dev.kref), 2U);
	ddm_device_unregister(&d0->dev);
	ddm_device_unregister(&d1->dev);
	fx_teardown(test, c, 2);
}

/* --- a probe that fails ------------------------------------------------------- */

static void ddm_probe_fails_reported(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *nodev = fx_drv_new(test, c, "fx-nodev", 0x3);
	struct fx_drv *nxio = fx_drv_new(test, c, "fx-nxio", 0x3);
	struct fx_drv *eio = fx_drv_new(test, c, "fx-eio", 0x3);
	struct fx_drv *good = fx_drv_new(test, c, "fx-good", 0x1);
	struct fx_dev *d0, *d1;

	fx_drv_fail_probe(nodev, 0, -ENODEV);
	fx_drv_fail_probe(nxio, 0, -ENXIO);
	fx_drv_fail_probe(eio, 0, -EIO);
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&nodev->drv), 0);
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&nxio->drv), 0);
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&eio->drv), 0);
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&good->drv), 0);

	shim_log_clear();
	d0 = fx_dev_add(test, c, 0);
	/* Only the real error is reported, in the RFC's words. */
	KUNIT_EXPECT_TRUE(test, shim_log_contains(
			  "fx-eio: probe of fx-dev0 failed with error -5"));
	KUNIT_EXPECT_FALSE(test, shim_log_contains("fx-nodev: probe of"));
	KUNIT_EXPECT_FALSE(test, shim_log_contains("fx-nxio: probe of"));
	KUNIT_EXPECT_PTR_EQ(test, d0->dev.driver, &good->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->id_probes[0]), 4);

	/* The driver_attach path reports too; the device stays unbound. */
	shim_log_clear();
	fx_drv_fail_probe(eio, 1, -ENOMEM);
	d1 = fx_dev_new(test, c, 1);
	ddm_driver_unregister(&nodev->drv);
	ddm_driver_unregister(&nxio->drv);
	KUNIT_ASSERT_EQ(test, ddm_device_register(&d1->dev), 0);
	KUNIT_EXPECT_TRUE(test, shim_log_contains(
			  "fx-eio: probe of fx-dev1 failed with error -12"));
	KUNIT_EXPECT_NULL(test, d1->dev.driver);
	KUNIT_EXPECT_FALSE(test, ddm_device_is_bound(&d1->dev));
	shim_log_clear();
	ddm_driver_unregister(&eio->drv);
	fx_drv_fail_probe(eio, -1, 0);
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&eio->drv), 0);
	KUNIT_EXPECT_PTR_EQ(test, d1->dev.driver, &eio->drv);
	KUNIT_EXPECT_FALSE(test, shim_log_contains("probe of"));

	ddm_device_unregister(&d0->dev);
	ddm_device_unregister(&d1->dev);
	ddm_driver_unregister(&eio->drv);
	ddm_driver_unregister(&good->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&eio->removes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&good->removes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&nodev->removes), 0);
	fx_teardown(test, c, 2);
}

/* --- D6: a failed preset bind, by allocation failure ---------------------- */

/*
 * D6, the preset driver that stayed after its bind failed (the lesson's
 * story is in ddm-lessons-test.c, with its "not registered" form).  Here
 * the form the kernel cannot force: the preset driver is registered, and
 * an allocation on the bind path (the `driver` link) fails.  Every
 * allocation of ddm_device_register() fails in turn (the kernel's
 * fail-nth).  Whenever the add succeeds with the device unbound, its
 * `driver` must be clear: the preset driver is unregistered and freed
 * at once, another driver must then be able to probe the device, and
 * unregistering the device must read nothing of the freed driver (the
 * guarded allocator reports such a read at the access).
 *
 * tests/defects/ddm/D6-failed-preset-bind-keeps-driver.patch leaves
 * dev->driver set: the probe gets -EBUSY and the unregister reads the
 * freed driver.
 */
static struct fx_drv *du_drv_alloc(struct kunit *test, struct fx_ctx *c,
				   const char *name, unsigned long mask)
{
	struct fx_drv *tmpl = fx_drv_new(test, c, name, mask);
	struct fx_drv *d = kzalloc(sizeof(*d), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, d);
	*d = *tmpl;
	return d;
}

static void ddm_d6_preset_bind_alloc_failure_clears_driver(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *b = fx_drv_new(test, c, "fx-b", FX_ID(0));
	unsigned int n, failed_binds = 0, devs = 0;
	bool injected = true;
	struct fx_drv *a;
	struct fx_dev *d;
	int ret;

	KUNIT_ASSERT_EQ(test, ddm_driver_register(&b->drv), 0);
	for (n = 1; injected && n < 100; n++) {
		a = du_drv_alloc(test, c, "fx-a", 0);
		KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
		d = fx_dev_new(test, c, 0);
		devs++;
		ddm_device_initialize(&d->dev);
		d->dev.driver = &a->drv;
		shim_fail_nth(n);
		ret = ddm_device_add(&d->dev);
		injected = !shim_fail_nth_left();
		shim_fail_nth(0);
		if (ret) {
			/* Not added: the caller's preset stays; nothing bound. */
			KUNIT_EXPECT_TRUE(test, injected);
			KUNIT_EXPECT_FALSE(test, ddm_device_is_bound(&d->dev));
			ddm_put_device(&d->dev);
			ddm_driver_unregister(&a->drv);
			kfree(a);
			continue;
		}
		if (ddm_device_is_bound(&d->dev)) {
			KUNIT_EXPECT_PTR_EQ(test, d->dev.driver, &a->drv);
			ddm_device_unregister(&d->dev);
			KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
			ddm_driver_unregister(&a->drv);
			kfree(a);
			continue;
		}
		failed_binds++;
		KUNIT_EXPECT_TRUE(test, injected);
		KUNIT_EXPECT_NULL_MSG(test, d->dev.driver,
				      "a failed preset bind (fail-nth %u) kept dev->driver",
				      n);
		ddm_driver_unregister(&a->drv);
		KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 0);
		kfree(a);
		/* A later probe works... */
		KUNIT_EXPECT_EQ(test, ddm_driver_probe_device(&b->drv, &d->dev), 0);
		KUNIT_EXPECT_PTR_EQ(test, d->dev.driver, &b->drv);
		/* ...and the unregister reads nothing of a. */
		ddm_device_unregister(&d->dev);
	}
	KUNIT_EXPECT_FALSE(test, injected);
	KUNIT_EXPECT_GE(test, failed_binds, 1U);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->probes), (int)failed_binds);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->removes), (int)failed_binds);
	ddm_driver_unregister(&b->drv);
	fx_teardown(test, c, devs);
}

/* --- D7: the preset driver unregistered under the bind ---------------------- */

/*
 * D7, the preset driver nobody pinned.
 *
 * ddm_device_add() binds a device whose `driver` is preset without a
 * probe.  It used to check, under the device lock, that the driver was
 * registered (its node attached to the bus's driver list), and then bind:
 * make the `driver` link to the driver's object and join the driver's
 * device list.  But ddm_driver_unregister() does not take the device
 * lock: it takes the driver off the bus list, detaches the devices on
 * the driver's list, and returns, after which the driver's owner may
 * free it.  An unregister that runs to completion between the check and
 * the klist_add_tail() finds the driver's list empty, and the bind then
 * links and lists the device into a freed driver: a use-after-free, and
 * a device bound to a driver that "on return" nothing referred to.
 *
 * The rule: the preset driver is pinned for the bind the way the probe
 * path pins the drivers it tries: the bind runs from a walk of the bus's
 * driver list that stands on the driver's node.  ddm_driver_unregister()
 * takes that node off with klist_remove(), which waits for the walk to
 * step off; so either the walk no longer finds the driver (the bind
 * fails, and D6 clears `driver`), or the device is on the driver's list
 * before the detach walks it, and the detach unbinds it.
 *
 * The window is forced: right after the first object lock the bind
 * releases with the device lock held (in the `driver` link), a kthread
 * unregisters the driver and frees it, and the bind waits up to 500 ms
 * for that to finish before it goes on.
 *
 * tests/defects/ddm/D7-preset-driver-not-pinned.patch puts the unpinned
 * check back: the unregister finishes inside the window and the bind
 * goes on into the freed driver (a KFENCE use-after-free report).
 */
struct du_d7 {
	struct ddm_device *dev;		/* the device being added */
	struct fx_drv *drv;		/* its preset driver, freed by the kthread */
	struct completion go, done;
	atomic_t fired, unregistered;
	int removes;			/* the driver's ->remove count, at its end */
	bool done_in_window;		/* the unregister finished in the window */
};

static void du_d7_hook(void *data)
{
	struct du_d7 *w = data;

	/* Only inside the bind: the device lock is held. */
	if (!mutex_is_locked(&w->dev->mutex)) {
		shim_on_unlock("&obj->lock", du_d7_hook, w);
		return;
	}
	atomic_set(&w->fired, 1);
	w->done_in_window = hook_window_hold(&w->go, &w->unregistered, 500);
}

static int du_d7_thread(void *data)
{
	struct du_d7 *w = data;

	if (fx_wait_or_stop(&w->go)) {
		ddm_driver_unregister(&w->drv->drv);
		w->removes = atomic_read(&w->drv->removes);
		/* As a module's exit: nothing refers to it, so it goes. */
		kfree(w->drv);
		atomic_set_release(&w->unregistered, 1);
		complete(&w->done);
	}
	fx_park();
	return 0;
}

static void ddm_d7_preset_driver_unregistered_in_bind(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct du_d7 *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct fx_dev *d = fx_dev_new(test, c, 0);
	struct task_struct *t;
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, w);
	init_completion(&w->go);
	init_completion(&w->done);
	w->drv = du_drv_alloc(test, c, "fx-a", 0);
	w->dev = &d->dev;
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&w->drv->drv), 0);
	t = kthread_run(du_d7_thread, w, "du-d7");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));

	ddm_device_initialize(&d->dev);
	d->dev.driver = &w->drv->drv;
	shim_on_unlock("&obj->lock", du_d7_hook, w);
	ret = ddm_device_add(&d->dev);
	shim_on_unlock(NULL, NULL, NULL);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&w->fired), 1);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&w->done,
				msecs_to_jiffies(2000)), 0UL);
	kthread_stop(t);
	/* The unregister waited for the bind, then undid it. */
	KUNIT_EXPECT_FALSE_MSG(test, w->done_in_window,
			       "the preset driver was unregistered during its bind");
	KUNIT_EXPECT_EQ(test, w->removes, 1);
	KUNIT_EXPECT_NULL(test, d->dev.driver);
	KUNIT_EXPECT_FALSE(test, ddm_device_is_bound(&d->dev));
	ddm_device_unregister(&d->dev);
	fx_teardown(test, c, 1);
}

static struct kunit_case ddm_userspace_test_cases[] = {
	KUNIT_CASE(ddm_d2_driver_registers_in_device_attach_window),
	KUNIT_CASE(ddm_d2_device_added_in_driver_attach_window),
	KUNIT_CASE(ddm_race_driver_unregister_vs_device_unregister),
	KUNIT_CASE(ddm_race_driver_register_vs_device_add),
	KUNIT_CASE(ddm_race_walks_while_devices_come_and_go),
	KUNIT_CASE(ddm_probe_sleeps),
	KUNIT_CASE(ddm_probe_fails_reported),
	KUNIT_CASE(ddm_d6_preset_bind_alloc_failure_clears_driver),
	KUNIT_CASE(ddm_d7_preset_driver_unregistered_in_bind),
	{}
};

static struct kunit_suite ddm_userspace_test_suite = {
	.name = "ddm_userspace",
	.test_cases = ddm_userspace_test_cases,
};

kunit_test_suites(&ddm_userspace_test_suite);
