// SPDX-License-Identifier: GPL-2.0
/*
 * ddm tests that need the shim: the consequence of D2 shown with a
 * controlled interleaving (shim_on_unlock), concurrency with real
 * threads, the probe-failure messages in the log, and misuse of the
 * API, which must be reported (WARN) and survived.  Userspace only.
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
#include <linux/spinlock.h>
#include <shim/shim.h>
#include <shim/valgrind.h>

#include "../ddm-test-fixture.h"

/* du_: this file's own helpers; the fixture's are fx_ (ddm-test-fixture.h). */

/* --- D2: the window the RFC left open ------------------------------------ */

/*
 * The interleaving: the test's own registration walks the bus list; the
 * moment its walk has taken its last step (the list lock released with
 * nothing further found), another thread registers the counterpart.
 * Under the RFC's order the newcomer is not on the bus list yet at that
 * moment, and the two never meet.  The two cases are one test, run from
 * either side (du_d2_window()).
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
	atomic_t probe_done;
	int probe_done_at_suspend;
};

static void du_slow_probe(struct fx_drv *d, struct ddm_device *dev)
{
	struct du_slow *s = d->priv;

	complete(&s->in_probe);
	/*
	 * The sleep is what is tested: a probe that takes a while, during
	 * which walks must go on and suspend and unregister must wait.
	 */
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
	long start;

	KUNIT_ASSERT_NOT_NULL(test, s);
	init_completion(&s->in_probe);
	a->probe_hook = du_slow_probe;
	a->suspend_hook = du_slow_suspend;
	a->priv = s;
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);

	/* 1: a walk of the bus does not wait; suspend does. */
	d0 = fx_dev_new(test, c, 0);
	t = du_register_async(test, &r, d0);
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&s->in_probe,
				msecs_to_jiffies(900)), 0UL);
	start = shim_now_ms();
	KUNIT_EXPECT_EQ(test, fx_on_bus(c), 1);
	KUNIT_EXPECT_LT(test, shim_now_ms() - start, 150L);
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
	start = shim_now_ms();
	ddm_driver_unregister(&a->drv);
	/* It waited for the probe's walk to leave the driver. */
	KUNIT_EXPECT_GE(test, shim_now_ms() - start, 200L);
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

/* --- misuse --------------------------------------------------------------------- */

static int du_walk_nop(struct ddm_device *dev, void *data)
{
	return 0;
}

static void ddm_misuse_null_arguments(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);

	shim_expect_report("ddm_bus_register()");
	shim_expect_report("ddm_bus_unregister()");
	shim_expect_report("ddm_device_register()");
	shim_expect_report("ddm_device_initialize()");
	shim_expect_report("ddm_device_add()");
	shim_expect_report("ddm_device_leave_bus()");	/* del */
	shim_expect_report("ddm_device_leave_bus()");	/* unregister */
	shim_expect_report("ddm_driver_register()");
	shim_expect_report("ddm_driver_unregister()");
	shim_expect_report("ddm_driver_probe_device()");
	shim_expect_report("ddm_device_attach()");
	shim_expect_report("ddm_driver_attach()");
	shim_expect_report("ddm_device_release_driver()");
	shim_expect_report("ddm_driver_detach()");
	shim_expect_report("ddm_device_bind_driver()");
	shim_expect_report("ddm_bus_for_each_dev()");
	KUNIT_EXPECT_EQ(test, ddm_bus_register(NULL), -EINVAL);
	ddm_bus_unregister(NULL);
	KUNIT_EXPECT_EQ(test, ddm_device_register(NULL), -EINVAL);
	ddm_device_initialize(NULL);
	KUNIT_EXPECT_EQ(test, ddm_device_add(NULL), -EINVAL);
	ddm_device_del(NULL);
	ddm_device_unregister(NULL);
	KUNIT_EXPECT_EQ(test, ddm_driver_register(NULL), -EINVAL);
	ddm_driver_unregister(NULL);
	KUNIT_EXPECT_EQ(test, ddm_driver_probe_device(NULL, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ddm_device_attach(NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ddm_driver_attach(NULL), -EINVAL);
	ddm_device_release_driver(NULL);
	ddm_driver_detach(NULL);
	KUNIT_EXPECT_EQ(test, ddm_device_bind_driver(NULL), -EINVAL);
	/* A NULL callback is a bug; a NULL bus is D5's quiet -EINVAL. */
	KUNIT_EXPECT_EQ(test, ddm_bus_for_each_dev(&c->bus, NULL, NULL, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ddm_bus_for_each_dev(NULL, NULL, NULL,
						   du_walk_nop), -EINVAL);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 16);
	fx_teardown(test, c, 0);
}

static void ddm_misuse_null_pm_arguments(struct kunit *test)
{
	shim_expect_report("ddm_device_suspend()");
	shim_expect_report("ddm_device_resume()");
	shim_expect_report("ddm_device_shutdown()");
	shim_expect_report("ddm_bus_for_each_drv()");
	shim_expect_report("ddm_driver_for_each_device()");
	KUNIT_EXPECT_EQ(test, ddm_device_suspend(NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ddm_device_resume(NULL), -EINVAL);
	ddm_device_shutdown(NULL);
	{
		struct fx_ctx *c = fx_setup(test);
		struct fx_drv *a = fx_drv_new(test, c, "fx-a", 0);

		KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
		KUNIT_EXPECT_EQ(test, ddm_bus_for_each_drv(&c->bus, NULL, NULL,
							   NULL), -EINVAL);
		KUNIT_EXPECT_EQ(test, ddm_driver_for_each_device(&a->drv, NULL,
								 NULL, NULL),
				-EINVAL);
		ddm_driver_unregister(&a->drv);
		fx_teardown(test, c, 0);
	}
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 5);
}

static void ddm_misuse_bad_registrations(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct ddm_bus other = { .name = "fx-other" };
	struct fx_drv *a = fx_drv_new(test, c, "fx-a", 0x1);
	struct fx_dev *d = fx_dev_new(test, c, 0);

	shim_expect_report("bus fx-bus registered twice");
	shim_expect_report("bus fx-other is not registered");
	shim_expect_report("device fx-dev0 added without a registered bus");
	shim_expect_report("driver fx-a registered without a registered bus");
	KUNIT_EXPECT_EQ(test, ddm_bus_register(&c->bus), -EBUSY);
	ddm_bus_unregister(&other);
	d->dev.bus = &other;
	KUNIT_EXPECT_EQ(test, ddm_device_register(&d->dev), -EINVAL);
	a->drv.bus = NULL;
	KUNIT_EXPECT_EQ(test, ddm_driver_register(&a->drv), -EINVAL);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 4);
	/* Fixed up, both register normally. */
	d->dev.bus = &c->bus;
	a->drv.bus = &c->bus;
	KUNIT_EXPECT_EQ(test, ddm_device_add(&d->dev), 0);
	KUNIT_EXPECT_EQ(test, ddm_driver_register(&a->drv), 0);
	KUNIT_EXPECT_PTR_EQ(test, d->dev.driver, &a->drv);
	ddm_device_unregister(&d->dev);
	ddm_driver_unregister(&a->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	fx_teardown(test, c, 1);
}

static void ddm_misuse_device_registered_twice(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_new(test, c, "fx-a", 0x1);
	struct fx_dev *d;

	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	d = fx_dev_add(test, c, 0);
	shim_expect_report("device fx-dev0 registered twice");
	shim_expect_report("device fx-dev0 registered twice");
	shim_expect_report("device fx-dev0 initialised after it was added");
	KUNIT_EXPECT_EQ(test, ddm_device_register(&d->dev), -EBUSY);
	KUNIT_EXPECT_EQ(test, ddm_device_add(&d->dev), -EBUSY);
	ddm_device_initialize(&d->dev);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 3);
	/* Nothing changed: still on the bus once, bound once. */
	KUNIT_EXPECT_EQ(test, fx_on_bus(c), 1);
	KUNIT_EXPECT_EQ(test, fx_bound(a), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);
	KUNIT_EXPECT_EQ(test, kref_read(&d->dev.kref), 3U);
	ddm_device_unregister(&d->dev);
	ddm_driver_unregister(&a->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	fx_teardown(test, c, 1);
}

static void ddm_misuse_device_unregistered_twice(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_new(test, c, "fx-a", 0x1);
	struct fx_dev *d;

	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	d = fx_dev_add(test, c, 0);
	ddm_get_device(&d->dev);	/* so that a wrong put could not free it */
	ddm_device_unregister(&d->dev);
	shim_expect_report("device fx-dev0 deleted but not registered");
	shim_expect_report("device fx-dev0 deleted but not registered");
	shim_expect_report("device fx-dev0 registered twice");
	ddm_device_unregister(&d->dev);	/* reported, no second put */
	ddm_device_del(&d->dev);
	KUNIT_EXPECT_EQ(test, ddm_device_add(&d->dev), -EBUSY);	/* no re-add */
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 3);
	KUNIT_EXPECT_EQ(test, kref_read(&d->dev.kref), 1U);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->released), 0);
	ddm_put_device(&d->dev);
	ddm_driver_unregister(&a->drv);
	fx_teardown(test, c, 1);
}

static void ddm_misuse_driver_registered_twice(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_new(test, c, "fx-a", 0x1);
	struct fx_dev *d = fx_dev_add(test, c, 0);

	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	shim_expect_report("driver fx-a registered twice");
	KUNIT_EXPECT_EQ(test, ddm_driver_register(&a->drv), -EBUSY);
	KUNIT_EXPECT_EQ(test, fx_bound(a), 1);	/* its list not reset */
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);
	ddm_driver_unregister(&a->drv);
	shim_expect_report("driver fx-a is not registered");
	ddm_driver_unregister(&a->drv);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	ddm_device_unregister(&d->dev);
	fx_teardown(test, c, 1);
}

static void ddm_misuse_bind_bound_device(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_new(test, c, "fx-a", 0x1);
	struct fx_drv *b = fx_drv_new(test, c, "fx-b", 0);
	struct fx_dev *d;

	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	d = fx_dev_add(test, c, 0);
	shim_expect_report("device fx-dev0 already bound");
	shim_expect_report("probing device fx-dev0 with unregistered driver fx-b");
	shim_expect_report("binding device fx-dev0 to unregistered driver fx-b");
	ddm_device_lock(&d->dev);
	KUNIT_EXPECT_EQ(test, ddm_device_bind_driver(&d->dev), -EBUSY);
	ddm_device_unlock(&d->dev);
	KUNIT_EXPECT_EQ(test, ddm_driver_probe_device(&b->drv, &d->dev),
			-EINVAL);
	ddm_device_release_driver(&d->dev);
	ddm_device_lock(&d->dev);
	d->dev.driver = &b->drv;
	KUNIT_EXPECT_EQ(test, ddm_device_bind_driver(&d->dev), -EINVAL);
	d->dev.driver = NULL;
	ddm_device_unlock(&d->dev);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 3);
	KUNIT_EXPECT_EQ(test, fx_bound(a), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	ddm_device_unregister(&d->dev);
	ddm_driver_unregister(&a->drv);
	fx_teardown(test, c, 1);
}

static void ddm_misuse_bind_without_lock(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_new(test, c, "fx-a", 0);
	struct fx_dev *d;

	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	d = fx_dev_add(test, c, 0);
	shim_expect_report("not held");
	d->dev.driver = &a->drv;
	KUNIT_EXPECT_EQ(test, ddm_device_bind_driver(&d->dev), 0);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
	ddm_device_unregister(&d->dev);
	ddm_driver_unregister(&a->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	fx_teardown(test, c, 1);
}

static void ddm_misuse_device_without_release(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_dev *d = fx_dev_new(test, c, 0);

	d->dev.release = NULL;
	shim_expect_report("ddm_device_add(): ddm: device fx-dev0 has no release function");
	shim_expect_report("has no release function, leaked");
	KUNIT_EXPECT_EQ(test, ddm_device_register(&d->dev), -EINVAL);
	KUNIT_EXPECT_EQ(test, fx_on_bus(c), 0);
	ddm_put_device(&d->dev);	/* reported: nothing can free it */
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 2);
	kfree(d);
	fx_teardown(test, c, 0);
}

static void ddm_misuse_bus_unregistered_busy(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_new(test, c, "fx-a", 0x1);
	struct fx_dev *d = fx_dev_add(test, c, 0);

	shim_expect_report("bus fx-bus unregistered with devices or drivers");
	shim_expect_report("bus fx-bus unregistered with devices or drivers");
	ddm_bus_unregister(&c->bus);
	KUNIT_EXPECT_TRUE(test, c->bus.registered);
	ddm_device_unregister(&d->dev);
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	ddm_bus_unregister(&c->bus);
	KUNIT_EXPECT_TRUE(test, c->bus.registered);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 2);
	ddm_driver_unregister(&a->drv);
	fx_teardown(test, c, 1);
}

static void ddm_misuse_walk_from_device_of_other_bus(struct kunit *test)
{
	struct fx_ctx *c1 = fx_setup(test);
	struct fx_ctx *c2 = fx_setup(test);
	struct fx_dev *d1 = fx_dev_add(test, c1, 0);
	struct fx_dev *d2 = fx_dev_add(test, c2, 1);
	int n = 0;

	shim_expect_report("starts from a node of another list");
	KUNIT_EXPECT_EQ(test, ddm_bus_for_each_dev(&c1->bus, &d2->dev, &n,
						   fx_count), 0);
	KUNIT_EXPECT_EQ(test, n, 1);	/* from the head instead */
	KUNIT_EXPECT_EQ(test, kref_read(&d2->dev.kref), 2U);
	ddm_device_unregister(&d1->dev);
	ddm_device_unregister(&d2->dev);
	fx_teardown(test, c1, 1);
	fx_teardown(test, c2, 1);
}

/* A driver is never probed against a device of another bus. */
static void ddm_misuse_probe_device_of_other_bus(struct kunit *test)
{
	struct fx_ctx *c1 = fx_setup(test);
	struct fx_ctx *c2 = fx_setup(test);
	struct fx_drv *a = fx_drv_new(test, c1, "fx-a", 0xff);
	struct fx_dev *d = fx_dev_add(test, c2, 0);

	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	KUNIT_EXPECT_EQ(test, ddm_driver_probe_device(&a->drv, &d->dev),
			-ENODEV);
	KUNIT_EXPECT_NULL(test, d->dev.driver);
	KUNIT_EXPECT_EQ(test, atomic_read(&c2->id_probes[0]), 0);
	ddm_device_unregister(&d->dev);
	ddm_driver_unregister(&a->drv);
	fx_teardown(test, c1, 0);
	fx_teardown(test, c2, 1);
}

/* A driver that claims a device never registered is refused. */
static void ddm_misuse_bind_unregistered_device(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_new(test, c, "fx-a", 0xff);
	struct fx_dev *d = fx_dev_new(test, c, 0);

	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	ddm_device_initialize(&d->dev);
	shim_expect_report("binding device fx-dev0 that is not registered");
	ddm_device_lock(&d->dev);
	d->dev.driver = &a->drv;
	KUNIT_EXPECT_EQ(test, ddm_device_bind_driver(&d->dev), -EINVAL);
	d->dev.driver = NULL;
	ddm_device_unlock(&d->dev);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
	KUNIT_EXPECT_EQ(test, fx_bound(a), 0);
	ddm_put_device(&d->dev);
	ddm_driver_unregister(&a->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 0);
	fx_teardown(test, c, 1);
}

/*
 * The points where registering a device (and binding it) may sleep: its
 * object and name are allocated, its "add" event takes the event mutex,
 * probing takes the device mutex, the `driver` link is allocated and the
 * "bind" event takes the event mutex.  Each one is reported.
 */
#define DU_REGISTER_SLEEPS	6

static void ddm_misuse_register_in_atomic(struct kunit *test)
{
	static DEFINE_SPINLOCK(outer);
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_new(test, c, "fx-a", 0x1);
	struct fx_dev *d = fx_dev_new(test, c, 0);
	int i;

	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	for (i = 0; i < DU_REGISTER_SLEEPS; i++)
		shim_expect_report("sleeping function called from invalid context");
	spin_lock(&outer);
	KUNIT_EXPECT_EQ(test, ddm_device_register(&d->dev), 0);
	spin_unlock(&outer);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), DU_REGISTER_SLEEPS);
	KUNIT_EXPECT_PTR_EQ(test, d->dev.driver, &a->drv);
	ddm_device_unregister(&d->dev);
	ddm_driver_unregister(&a->drv);
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
	KUNIT_CASE(ddm_misuse_null_arguments),
	KUNIT_CASE(ddm_misuse_null_pm_arguments),
	KUNIT_CASE(ddm_misuse_bad_registrations),
	KUNIT_CASE(ddm_misuse_device_registered_twice),
	KUNIT_CASE(ddm_misuse_device_unregistered_twice),
	KUNIT_CASE(ddm_misuse_driver_registered_twice),
	KUNIT_CASE(ddm_misuse_bind_bound_device),
	KUNIT_CASE(ddm_misuse_bind_without_lock),
	KUNIT_CASE(ddm_misuse_device_without_release),
	KUNIT_CASE(ddm_misuse_bus_unregistered_busy),
	KUNIT_CASE(ddm_misuse_walk_from_device_of_other_bus),
	KUNIT_CASE(ddm_misuse_probe_device_of_other_bus),
	KUNIT_CASE(ddm_misuse_bind_unregistered_device),
	KUNIT_CASE(ddm_misuse_register_in_atomic),
	{}
};

static struct kunit_suite ddm_userspace_test_suite = {
	.name = "ddm_userspace",
	.test_cases = ddm_userspace_test_cases,
};

kunit_test_suites(&ddm_userspace_test_suite);
