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

#define DU_DEVS		16
#define DU_MAGIC	0x64646d64	/* "ddmd" */

static const char *const du_names[DU_DEVS] = {
	"du-dev0", "du-dev1", "du-dev2", "du-dev3",
	"du-dev4", "du-dev5", "du-dev6", "du-dev7",
	"du-dev8", "du-dev9", "du-dev10", "du-dev11",
	"du-dev12", "du-dev13", "du-dev14", "du-dev15",
};

struct du_ctx {
	struct ddm_bus bus;
	/* Per device id: they outlive the devices. */
	atomic_t probes[DU_DEVS], removes[DU_DEVS];
	atomic_t released, unlocked_calls;
	/* Called from the bus's match, for tests that step in there. */
	void (*match_hook)(struct du_ctx *c, struct ddm_device *dev,
			   struct ddm_driver *drv);
	void *priv;
};

struct du_drv {
	struct ddm_driver drv;
	unsigned long mask;
	int fail_id, fail_ret;
	unsigned int probe_sleep_ms;
	struct completion in_probe;
	atomic_t probes, removes, suspends;
	atomic_t probe_done;
	int probe_done_at_suspend;
};

struct du_dev {
	int magic;
	int id;
	struct du_ctx *ctx;
	struct ddm_device dev;
};

static struct du_dev *to_du_dev(struct ddm_device *dev)
{
	return container_of(dev, struct du_dev, dev);
}

static struct du_drv *to_du_drv(struct ddm_driver *drv)
{
	return container_of(drv, struct du_drv, drv);
}

static struct du_ctx *du_ctx_of(struct ddm_device *dev)
{
	return container_of(dev->bus, struct du_ctx, bus);
}

static int du_match(struct ddm_device *dev, struct ddm_driver *drv)
{
	struct du_ctx *c = du_ctx_of(dev);

	if (c->match_hook)
		c->match_hook(c, dev, drv);
	return !!(to_du_drv(drv)->mask & (1UL << to_du_dev(dev)->id));
}

static int du_probe(struct ddm_device *dev)
{
	struct du_drv *d = to_du_drv(dev->driver);
	struct du_dev *dd = to_du_dev(dev);

	if (!mutex_is_locked(&dev->mutex))
		atomic_inc(&dd->ctx->unlocked_calls);
	atomic_inc(&d->probes);
	atomic_inc(&dd->ctx->probes[dd->id]);
	if (d->probe_sleep_ms) {
		complete(&d->in_probe);
		msleep(d->probe_sleep_ms);
	}
	atomic_set(&d->probe_done, 1);
	return dd->id == d->fail_id ? d->fail_ret : 0;
}

static void du_remove(struct ddm_device *dev)
{
	struct du_dev *dd = to_du_dev(dev);

	if (!mutex_is_locked(&dev->mutex))
		atomic_inc(&dd->ctx->unlocked_calls);
	atomic_inc(&to_du_drv(dev->driver)->removes);
	atomic_inc(&dd->ctx->removes[dd->id]);
}

static int du_suspend(struct ddm_device *dev)
{
	struct du_drv *d = to_du_drv(dev->driver);

	atomic_inc(&d->suspends);
	d->probe_done_at_suspend = atomic_read(&d->probe_done);
	return 0;
}

static void du_release(struct ddm_device *dev)
{
	struct du_dev *dd = to_du_dev(dev);

	atomic_inc(&dd->ctx->released);
	dd->magic = 0;
	kfree(dd);
}

static struct du_ctx *du_setup(struct kunit *test)
{
	struct du_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->bus.name = "du-bus";
	c->bus.match = du_match;
	KUNIT_ASSERT_EQ(test, ddm_bus_register(&c->bus), 0);
	return c;
}

static void du_teardown(struct kunit *test, struct du_ctx *c, int released)
{
	KUNIT_EXPECT_EQ(test, atomic_read(&c->released), released);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->unlocked_calls), 0);
	ddm_bus_unregister(&c->bus);
	KUNIT_EXPECT_FALSE(test, c->bus.registered);
}

static struct du_drv *du_drv_new(struct kunit *test, struct du_ctx *c,
				 const char *name, unsigned long mask)
{
	struct du_drv *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, d);
	d->drv.name = name;
	d->drv.bus = &c->bus;
	d->drv.probe = du_probe;
	d->drv.remove = du_remove;
	d->drv.suspend = du_suspend;
	d->mask = mask;
	d->fail_id = -1;
	init_completion(&d->in_probe);
	return d;
}

static struct du_dev *du_dev_new(struct du_ctx *c, int id)
{
	struct du_dev *d = kzalloc(sizeof(*d), GFP_KERNEL);

	if (!d)
		return NULL;
	d->magic = DU_MAGIC;
	d->id = id;
	d->ctx = c;
	d->dev.name = du_names[id];
	d->dev.bus = &c->bus;
	d->dev.release = du_release;
	return d;
}

static struct du_dev *du_dev_add(struct kunit *test, struct du_ctx *c, int id)
{
	struct du_dev *d = du_dev_new(c, id);

	KUNIT_ASSERT_NOT_NULL(test, d);
	KUNIT_ASSERT_EQ(test, ddm_device_register(&d->dev), 0);
	return d;
}

static int du_count(struct ddm_device *dev, void *data)
{
	(*(int *)data)++;
	return 0;
}

static int du_bound(struct du_drv *d)
{
	int n = 0;

	ddm_driver_for_each_device(&d->drv, NULL, &n, du_count);
	return n;
}

static int du_on_bus(struct du_ctx *c)
{
	int n = 0;

	ddm_bus_for_each_dev(&c->bus, NULL, &n, du_count);
	return n;
}

static void du_park(void)
{
	while (!kthread_should_stop())
		usleep_range(1000, 2000);
}

static bool du_wait_or_stop(struct completion *c)
{
	while (!wait_for_completion_timeout(c, msecs_to_jiffies(50)))
		if (kthread_should_stop())
			return false;
	return true;
}

/* --- D2: the window the RFC left open ------------------------------------ */

/*
 * The interleaving: the test's own registration walks the bus list; the
 * moment its walk has taken its last step (the list lock released with
 * nothing further found), another thread registers the counterpart.
 * Under the RFC's order the newcomer is not on the bus list yet at that
 * moment, and the two never meet.
 */
struct du_window {
	struct ddm_device *armed_dev;	/* the match that arms the hook */
	struct ddm_driver *armed_drv;
	struct ddm_device *meet_dev;	/* the match that shows they met */
	struct ddm_driver *meet_drv;
	struct completion go, done;
	atomic_t armed, met, other_done;
	struct du_dev *newdev;		/* what the other thread registers */
	struct du_drv *newdrv;
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

static void du_window_match(struct du_ctx *c, struct ddm_device *dev,
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

	if (du_wait_or_stop(&w->go)) {
		if (w->newdrv)
			w->ret = ddm_driver_register(&w->newdrv->drv);
		else
			w->ret = ddm_device_register(&w->newdev->dev);
		atomic_set(&w->other_done, 1);
		complete(&w->done);
	}
	du_park();
	return 0;
}

/* D2: a driver registering as a device's probe walk ends still binds it. */
static void ddm_d2_driver_registers_in_device_attach_window(struct kunit *test)
{
	struct du_ctx *c = du_setup(test);
	struct du_drv *a = du_drv_new(test, c, "du-a", 0);	/* no match */
	struct du_drv *b = du_drv_new(test, c, "du-b", 0x1);
	struct du_window *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct task_struct *t;
	struct du_dev *x;

	KUNIT_ASSERT_NOT_NULL(test, w);
	x = du_dev_new(c, 0);
	KUNIT_ASSERT_NOT_NULL(test, x);
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	init_completion(&w->go);
	init_completion(&w->done);
	w->armed_dev = &x->dev;
	w->armed_drv = &a->drv;
	w->meet_dev = &x->dev;
	w->meet_drv = &b->drv;
	w->newdrv = b;
	c->priv = w;
	c->match_hook = du_window_match;
	t = kthread_run(du_window_thread, w, "du-d2-driver");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));

	KUNIT_ASSERT_EQ(test, ddm_device_register(&x->dev), 0);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&w->done,
				msecs_to_jiffies(900)), 0UL);
	kthread_stop(t);
	c->match_hook = NULL;
	KUNIT_EXPECT_EQ(test, atomic_read(&w->armed), 1);
	KUNIT_EXPECT_EQ(test, w->ret, 0);
	KUNIT_EXPECT_PTR_EQ_MSG(test, x->dev.driver, &b->drv,
				"device left unbound although driver %s is registered",
				b->drv.name);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->probes), 1);
	ddm_device_unregister(&x->dev);
	ddm_driver_unregister(&a->drv);
	ddm_driver_unregister(&b->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->removes),
			atomic_read(&b->probes));
	du_teardown(test, c, 1);
}

/* D2: a device added as a driver's probe walk ends is still bound to it. */
static void ddm_d2_device_added_in_driver_attach_window(struct kunit *test)
{
	struct du_ctx *c = du_setup(test);
	struct du_drv *b = du_drv_new(test, c, "du-b", 0x2);
	struct du_window *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct task_struct *t;
	struct du_dev *other, *x;

	KUNIT_ASSERT_NOT_NULL(test, w);
	other = du_dev_add(test, c, 0);			/* b does not match it */
	x = du_dev_new(c, 1);
	KUNIT_ASSERT_NOT_NULL(test, x);
	init_completion(&w->go);
	init_completion(&w->done);
	w->armed_dev = &other->dev;
	w->armed_drv = &b->drv;
	w->meet_dev = &x->dev;
	w->meet_drv = &b->drv;
	w->newdev = x;
	c->priv = w;
	c->match_hook = du_window_match;
	t = kthread_run(du_window_thread, w, "du-d2-device");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));

	KUNIT_ASSERT_EQ(test, ddm_driver_register(&b->drv), 0);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&w->done,
				msecs_to_jiffies(900)), 0UL);
	kthread_stop(t);
	c->match_hook = NULL;
	KUNIT_EXPECT_EQ(test, atomic_read(&w->armed), 1);
	KUNIT_EXPECT_EQ(test, w->ret, 0);
	KUNIT_EXPECT_PTR_EQ_MSG(test, x->dev.driver, &b->drv,
				"device %s left unbound although its driver is registered",
				x->dev.name);
	ddm_device_unregister(&x->dev);
	ddm_device_unregister(&other->dev);
	ddm_driver_unregister(&b->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->removes),
			atomic_read(&b->probes));
	du_teardown(test, c, 2);
}

/* --- races ------------------------------------------------------------------ */

struct du_job {
	struct du_ctx *c;
	struct completion *go;
	struct completion done;
	struct task_struct *task;
	int (*fn)(struct du_job *j);
	struct du_drv *drv;
	struct du_dev **devs;
	int first, count, ret;
};

static int du_job_thread(void *data)
{
	struct du_job *j = data;

	if (du_wait_or_stop(j->go)) {
		j->ret = j->fn(j);
		complete(&j->done);
	}
	du_park();
	return 0;
}

static void du_job_start(struct kunit *test, struct du_job *j,
			 struct du_ctx *c, struct completion *go,
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

/* A driver and its devices unregistered at once: one ->remove per device. */
static void ddm_race_driver_unregister_vs_device_unregister(struct kunit *test)
{
	struct du_ctx *c = du_setup(test);
	struct du_dev *devs[DU_RACE_DEVS];
	struct du_job jobs[3] = {};
	struct completion go;
	int round, i;

	for (round = 0; round < du_rounds(); round++) {
		struct du_drv *a = du_drv_new(test, c, "du-a", 0xff);

		KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
		for (i = 0; i < DU_RACE_DEVS; i++) {
			atomic_set(&c->removes[i], 0);
			devs[i] = du_dev_add(test, c, i);
		}
		KUNIT_ASSERT_EQ(test, du_bound(a), DU_RACE_DEVS);
		init_completion(&go);
		memset(jobs, 0, sizeof(jobs));
		jobs[0].drv = a;
		du_job_start(test, &jobs[0], c, &go, du_unregister_driver_job,
			     "du-drv-unreg");
		for (i = 1; i < 3; i++) {
			jobs[i].devs = devs;
			jobs[i].first = (i - 1) * DU_RACE_DEVS / 2;
			jobs[i].count = DU_RACE_DEVS / 2;
			du_job_start(test, &jobs[i], c, &go,
				     du_unregister_devices_job, "du-dev-unreg");
		}
		complete_all(&go);
		for (i = 0; i < 3; i++)
			du_job_finish(test, &jobs[i]);

		for (i = 0; i < DU_RACE_DEVS; i++)
			KUNIT_EXPECT_EQ_MSG(test, atomic_read(&c->removes[i]), 1,
					    "round %d, device %d", round, i);
		KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), DU_RACE_DEVS);
		KUNIT_EXPECT_EQ(test, du_bound(a), 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&c->released),
				(round + 1) * DU_RACE_DEVS);
	}
	KUNIT_EXPECT_EQ(test, du_on_bus(c), 0);
	du_teardown(test, c, du_rounds() * DU_RACE_DEVS);
}

/* A driver registered while devices are added: none is left unbound. */
static void ddm_race_driver_register_vs_device_add(struct kunit *test)
{
	struct du_ctx *c = du_setup(test);
	struct du_dev *devs[DU_RACE_DEVS];
	struct du_job jobs[3] = {};
	struct completion go;
	int round, i;

	for (round = 0; round < du_rounds(); round++) {
		struct du_drv *a = du_drv_new(test, c, "du-a", 0xff);

		for (i = 0; i < DU_RACE_DEVS; i++) {
			atomic_set(&c->probes[i], 0);
			atomic_set(&c->removes[i], 0);
			devs[i] = du_dev_new(c, i);
			KUNIT_ASSERT_NOT_NULL(test, devs[i]);
		}
		init_completion(&go);
		memset(jobs, 0, sizeof(jobs));
		jobs[0].drv = a;
		du_job_start(test, &jobs[0], c, &go, du_register_driver_job,
			     "du-drv-reg");
		for (i = 1; i < 3; i++) {
			jobs[i].devs = devs;
			jobs[i].first = (i - 1) * DU_RACE_DEVS / 2;
			jobs[i].count = DU_RACE_DEVS / 2;
			du_job_start(test, &jobs[i], c, &go,
				     du_register_devices_job, "du-dev-reg");
		}
		complete_all(&go);
		for (i = 0; i < 3; i++)
			du_job_finish(test, &jobs[i]);

		for (i = 0; i < DU_RACE_DEVS; i++) {
			KUNIT_EXPECT_PTR_EQ_MSG(test, devs[i]->dev.driver,
						&a->drv, "round %d: %s unbound",
						round, devs[i]->dev.name);
			KUNIT_EXPECT_EQ_MSG(test, atomic_read(&c->probes[i]), 1,
					    "round %d, device %d", round, i);
		}
		KUNIT_EXPECT_EQ(test, du_bound(a), DU_RACE_DEVS);
		for (i = 0; i < DU_RACE_DEVS; i++)
			ddm_device_unregister(&devs[i]->dev);
		ddm_driver_unregister(&a->drv);
		for (i = 0; i < DU_RACE_DEVS; i++)
			KUNIT_EXPECT_EQ(test, atomic_read(&c->removes[i]), 1);
		KUNIT_EXPECT_EQ(test, atomic_read(&c->released),
				(round + 1) * DU_RACE_DEVS);
	}
	du_teardown(test, c, du_rounds() * DU_RACE_DEVS);
}

/* Walks while devices come and go: every device handed out is alive. */
struct du_churn {
	struct du_ctx *c;
	struct du_drv *drv;
	atomic_t stop, bad, walks, seen;
	int first;
};

static int du_check_alive(struct ddm_device *dev, void *data)
{
	struct du_churn *s = data;
	struct du_dev *d = to_du_dev(dev);

	atomic_inc(&s->seen);
	/* A freed device reads as poison, not DU_MAGIC. */
	if (READ_ONCE(d->magic) != DU_MAGIC || !kref_read(&dev->kref))
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
	du_park();
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
	struct du_dev *d;
	int round, i;

	for (round = 0; round < DU_CHURN_ROUNDS(); round++) {
		for (i = ch->first; i < ch->first + 4; i++) {
			d = du_dev_new(ch->s->c, i);
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
	du_park();
	return 0;
}

static void ddm_race_walks_while_devices_come_and_go(struct kunit *test)
{
	struct du_ctx *c = du_setup(test);
	struct du_drv *a = du_drv_new(test, c, "du-a", 0x5555);
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
		probes += atomic_read(&c->probes[i]);
		removes += atomic_read(&c->removes[i]);
	}
	/* Even ids match: half of the devices were bound, once each. */
	KUNIT_EXPECT_EQ(test, probes, DU_CHURN_DEVS() / 2);
	KUNIT_EXPECT_EQ(test, removes, DU_CHURN_DEVS() / 2);
	KUNIT_EXPECT_EQ(test, du_bound(a), 0);
	KUNIT_EXPECT_EQ(test, du_on_bus(c), 0);
	ddm_driver_unregister(&a->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), DU_CHURN_DEVS() / 2);
	du_teardown(test, c, DU_CHURN_DEVS());
}

/* --- a probe that sleeps ------------------------------------------------------ */

struct du_reg {
	struct du_dev *dev;
	struct completion done;
	int ret;
};

static int du_register_thread(void *data)
{
	struct du_reg *r = data;

	r->ret = ddm_device_register(&r->dev->dev);
	complete(&r->done);
	du_park();
	return 0;
}

static struct task_struct *du_register_async(struct kunit *test,
					     struct du_reg *r, struct du_dev *d)
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
	struct du_ctx *c = du_setup(test);
	struct du_drv *a = du_drv_new(test, c, "du-slow", 0x3);
	struct du_dev *d0, *d1;
	struct task_struct *t;
	struct du_reg r;
	long start;

	a->probe_sleep_ms = 300;
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);

	/* 1: a walk of the bus does not wait; suspend does. */
	d0 = du_dev_new(c, 0);
	KUNIT_ASSERT_NOT_NULL(test, d0);
	t = du_register_async(test, &r, d0);
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&a->in_probe,
				msecs_to_jiffies(900)), 0UL);
	start = shim_now_ms();
	KUNIT_EXPECT_EQ(test, du_on_bus(c), 1);
	KUNIT_EXPECT_LT(test, shim_now_ms() - start, 150L);
	KUNIT_EXPECT_EQ(test, ddm_device_suspend(&d0->dev), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->suspends), 1);
	KUNIT_EXPECT_EQ(test, a->probe_done_at_suspend, 1);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&r.done,
				msecs_to_jiffies(900)), 0UL);
	kthread_stop(t);
	KUNIT_EXPECT_EQ(test, r.ret, 0);
	KUNIT_EXPECT_PTR_EQ(test, d0->dev.driver, &a->drv);

	/* 2: unregister the driver while it probes the next device. */
	atomic_set(&a->probe_done, 0);
	reinit_completion(&a->in_probe);
	d1 = du_dev_new(c, 1);
	KUNIT_ASSERT_NOT_NULL(test, d1);
	t = du_register_async(test, &r, d1);
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&a->in_probe,
				msecs_to_jiffies(900)), 0UL);
	start = shim_now_ms();
	ddm_driver_unregister(&a->drv);
	/* It waited for the probe's walk to leave the driver. */
	KUNIT_EXPECT_GE(test, shim_now_ms() - start, 200L);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probe_done), 1);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&r.done,
				msecs_to_jiffies(900)), 0UL);
	kthread_stop(t);
	KUNIT_EXPECT_EQ(test, r.ret, 0);
	/* The bind that finished was undone: nothing bound to a gone driver. */
	KUNIT_EXPECT_NULL(test, d0->dev.driver);
	KUNIT_EXPECT_NULL(test, d1->dev.driver);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 2);
	KUNIT_EXPECT_EQ(test, du_bound(a), 0);
	KUNIT_EXPECT_EQ(test, kref_read(&d1->dev.kref), 2U);
	ddm_device_unregister(&d0->dev);
	ddm_device_unregister(&d1->dev);
	du_teardown(test, c, 2);
}

/* --- a probe that fails ------------------------------------------------------- */

static void ddm_probe_fails_reported(struct kunit *test)
{
	struct du_ctx *c = du_setup(test);
	struct du_drv *nodev = du_drv_new(test, c, "du-nodev", 0x3);
	struct du_drv *nxio = du_drv_new(test, c, "du-nxio", 0x3);
	struct du_drv *eio = du_drv_new(test, c, "du-eio", 0x3);
	struct du_drv *good = du_drv_new(test, c, "du-good", 0x1);
	struct du_dev *d0, *d1;

	nodev->fail_id = 0;
	nxio->fail_id = 0;
	eio->fail_id = 0;
	nodev->fail_ret = -ENODEV;
	nxio->fail_ret = -ENXIO;
	eio->fail_ret = -EIO;
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&nodev->drv), 0);
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&nxio->drv), 0);
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&eio->drv), 0);
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&good->drv), 0);

	shim_log_clear();
	d0 = du_dev_add(test, c, 0);
	/* Only the real error is reported, in the RFC's words. */
	KUNIT_EXPECT_TRUE(test, shim_log_contains(
			  "du-eio: probe of du-dev0 failed with error -5"));
	KUNIT_EXPECT_FALSE(test, shim_log_contains("du-nodev: probe of"));
	KUNIT_EXPECT_FALSE(test, shim_log_contains("du-nxio: probe of"));
	KUNIT_EXPECT_PTR_EQ(test, d0->dev.driver, &good->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->probes[0]), 4);

	/* The driver_attach path reports too; the device stays unbound. */
	shim_log_clear();
	eio->fail_id = 1;
	eio->fail_ret = -ENOMEM;
	d1 = du_dev_new(c, 1);
	KUNIT_ASSERT_NOT_NULL(test, d1);
	ddm_driver_unregister(&nodev->drv);
	ddm_driver_unregister(&nxio->drv);
	KUNIT_ASSERT_EQ(test, ddm_device_register(&d1->dev), 0);
	KUNIT_EXPECT_TRUE(test, shim_log_contains(
			  "du-eio: probe of du-dev1 failed with error -12"));
	KUNIT_EXPECT_NULL(test, d1->dev.driver);
	KUNIT_EXPECT_FALSE(test, ddm_device_is_bound(&d1->dev));
	shim_log_clear();
	ddm_driver_unregister(&eio->drv);
	eio->fail_id = -1;
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
	du_teardown(test, c, 2);
}

/* --- misuse --------------------------------------------------------------------- */

static int du_walk_nop(struct ddm_device *dev, void *data)
{
	return 0;
}

static void ddm_misuse_null_arguments(struct kunit *test)
{
	struct du_ctx *c = du_setup(test);

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
	du_teardown(test, c, 0);
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
		struct du_ctx *c = du_setup(test);
		struct du_drv *a = du_drv_new(test, c, "du-a", 0);

		KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
		KUNIT_EXPECT_EQ(test, ddm_bus_for_each_drv(&c->bus, NULL, NULL,
							   NULL), -EINVAL);
		KUNIT_EXPECT_EQ(test, ddm_driver_for_each_device(&a->drv, NULL,
								 NULL, NULL),
				-EINVAL);
		ddm_driver_unregister(&a->drv);
		du_teardown(test, c, 0);
	}
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 5);
}

static void ddm_misuse_bad_registrations(struct kunit *test)
{
	struct du_ctx *c = du_setup(test);
	struct ddm_bus other = { .name = "du-other" };
	struct du_drv *a = du_drv_new(test, c, "du-a", 0x1);
	struct du_dev *d = du_dev_new(c, 0);

	KUNIT_ASSERT_NOT_NULL(test, d);
	shim_expect_report("bus du-bus registered twice");
	shim_expect_report("bus du-other is not registered");
	shim_expect_report("device du-dev0 added without a registered bus");
	shim_expect_report("driver du-a registered without a registered bus");
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
	du_teardown(test, c, 1);
}

static void ddm_misuse_device_registered_twice(struct kunit *test)
{
	struct du_ctx *c = du_setup(test);
	struct du_drv *a = du_drv_new(test, c, "du-a", 0x1);
	struct du_dev *d;

	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	d = du_dev_add(test, c, 0);
	shim_expect_report("device du-dev0 registered twice");
	shim_expect_report("device du-dev0 registered twice");
	shim_expect_report("device du-dev0 initialised after it was added");
	KUNIT_EXPECT_EQ(test, ddm_device_register(&d->dev), -EBUSY);
	KUNIT_EXPECT_EQ(test, ddm_device_add(&d->dev), -EBUSY);
	ddm_device_initialize(&d->dev);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 3);
	/* Nothing changed: still on the bus once, bound once. */
	KUNIT_EXPECT_EQ(test, du_on_bus(c), 1);
	KUNIT_EXPECT_EQ(test, du_bound(a), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);
	KUNIT_EXPECT_EQ(test, kref_read(&d->dev.kref), 3U);
	ddm_device_unregister(&d->dev);
	ddm_driver_unregister(&a->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	du_teardown(test, c, 1);
}

static void ddm_misuse_device_unregistered_twice(struct kunit *test)
{
	struct du_ctx *c = du_setup(test);
	struct du_drv *a = du_drv_new(test, c, "du-a", 0x1);
	struct du_dev *d;

	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	d = du_dev_add(test, c, 0);
	ddm_get_device(&d->dev);	/* so that a wrong put could not free it */
	ddm_device_unregister(&d->dev);
	shim_expect_report("device du-dev0 deleted but not registered");
	shim_expect_report("device du-dev0 deleted but not registered");
	shim_expect_report("device du-dev0 registered twice");
	ddm_device_unregister(&d->dev);	/* reported, no second put */
	ddm_device_del(&d->dev);
	KUNIT_EXPECT_EQ(test, ddm_device_add(&d->dev), -EBUSY);	/* no re-add */
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 3);
	KUNIT_EXPECT_EQ(test, kref_read(&d->dev.kref), 1U);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->released), 0);
	ddm_put_device(&d->dev);
	ddm_driver_unregister(&a->drv);
	du_teardown(test, c, 1);
}

static void ddm_misuse_driver_registered_twice(struct kunit *test)
{
	struct du_ctx *c = du_setup(test);
	struct du_drv *a = du_drv_new(test, c, "du-a", 0x1);
	struct du_dev *d = du_dev_add(test, c, 0);

	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	shim_expect_report("driver du-a registered twice");
	KUNIT_EXPECT_EQ(test, ddm_driver_register(&a->drv), -EBUSY);
	KUNIT_EXPECT_EQ(test, du_bound(a), 1);	/* its list not reset */
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);
	ddm_driver_unregister(&a->drv);
	shim_expect_report("driver du-a is not registered");
	ddm_driver_unregister(&a->drv);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	ddm_device_unregister(&d->dev);
	du_teardown(test, c, 1);
}

static void ddm_misuse_bind_bound_device(struct kunit *test)
{
	struct du_ctx *c = du_setup(test);
	struct du_drv *a = du_drv_new(test, c, "du-a", 0x1);
	struct du_drv *b = du_drv_new(test, c, "du-b", 0);
	struct du_dev *d;

	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	d = du_dev_add(test, c, 0);
	shim_expect_report("device du-dev0 already bound");
	shim_expect_report("probing device du-dev0 with unregistered driver du-b");
	shim_expect_report("binding device du-dev0 to unregistered driver du-b");
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
	KUNIT_EXPECT_EQ(test, du_bound(a), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	ddm_device_unregister(&d->dev);
	ddm_driver_unregister(&a->drv);
	du_teardown(test, c, 1);
}

static void ddm_misuse_bind_without_lock(struct kunit *test)
{
	struct du_ctx *c = du_setup(test);
	struct du_drv *a = du_drv_new(test, c, "du-a", 0);
	struct du_dev *d;

	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	d = du_dev_add(test, c, 0);
	shim_expect_report("not held");
	d->dev.driver = &a->drv;
	KUNIT_EXPECT_EQ(test, ddm_device_bind_driver(&d->dev), 0);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
	ddm_device_unregister(&d->dev);
	ddm_driver_unregister(&a->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	du_teardown(test, c, 1);
}

static void ddm_misuse_device_without_release(struct kunit *test)
{
	struct du_ctx *c = du_setup(test);
	struct du_dev *d = du_dev_new(c, 0);

	KUNIT_ASSERT_NOT_NULL(test, d);
	d->dev.release = NULL;
	shim_expect_report("ddm_device_add(): ddm: device du-dev0 has no release function");
	shim_expect_report("has no release function, leaked");
	KUNIT_EXPECT_EQ(test, ddm_device_register(&d->dev), -EINVAL);
	KUNIT_EXPECT_EQ(test, du_on_bus(c), 0);
	ddm_put_device(&d->dev);	/* reported: nothing can free it */
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 2);
	kfree(d);
	du_teardown(test, c, 0);
}

static void ddm_misuse_bus_unregistered_busy(struct kunit *test)
{
	struct du_ctx *c = du_setup(test);
	struct du_drv *a = du_drv_new(test, c, "du-a", 0x1);
	struct du_dev *d = du_dev_add(test, c, 0);

	shim_expect_report("bus du-bus unregistered with devices or drivers");
	shim_expect_report("bus du-bus unregistered with devices or drivers");
	ddm_bus_unregister(&c->bus);
	KUNIT_EXPECT_TRUE(test, c->bus.registered);
	ddm_device_unregister(&d->dev);
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	ddm_bus_unregister(&c->bus);
	KUNIT_EXPECT_TRUE(test, c->bus.registered);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 2);
	ddm_driver_unregister(&a->drv);
	du_teardown(test, c, 1);
}

static void ddm_misuse_walk_from_device_of_other_bus(struct kunit *test)
{
	struct du_ctx *c1 = du_setup(test);
	struct du_ctx *c2 = du_setup(test);
	struct du_dev *d1 = du_dev_add(test, c1, 0);
	struct du_dev *d2 = du_dev_add(test, c2, 1);
	int n = 0;

	shim_expect_report("starts from a node of another list");
	KUNIT_EXPECT_EQ(test, ddm_bus_for_each_dev(&c1->bus, &d2->dev, &n,
						   du_count), 0);
	KUNIT_EXPECT_EQ(test, n, 1);	/* from the head instead */
	KUNIT_EXPECT_EQ(test, kref_read(&d2->dev.kref), 2U);
	ddm_device_unregister(&d1->dev);
	ddm_device_unregister(&d2->dev);
	du_teardown(test, c1, 1);
	du_teardown(test, c2, 1);
}

/* A driver is never probed against a device of another bus. */
static void ddm_misuse_probe_device_of_other_bus(struct kunit *test)
{
	struct du_ctx *c1 = du_setup(test);
	struct du_ctx *c2 = du_setup(test);
	struct du_drv *a = du_drv_new(test, c1, "du-a", 0xff);
	struct du_dev *d = du_dev_add(test, c2, 0);

	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	KUNIT_EXPECT_EQ(test, ddm_driver_probe_device(&a->drv, &d->dev),
			-ENODEV);
	KUNIT_EXPECT_NULL(test, d->dev.driver);
	KUNIT_EXPECT_EQ(test, atomic_read(&c2->probes[0]), 0);
	ddm_device_unregister(&d->dev);
	ddm_driver_unregister(&a->drv);
	du_teardown(test, c1, 0);
	du_teardown(test, c2, 1);
}

/* A driver that claims a device never registered is refused. */
static void ddm_misuse_bind_unregistered_device(struct kunit *test)
{
	struct du_ctx *c = du_setup(test);
	struct du_drv *a = du_drv_new(test, c, "du-a", 0xff);
	struct du_dev *d = du_dev_new(c, 0);

	KUNIT_ASSERT_NOT_NULL(test, d);
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	ddm_device_initialize(&d->dev);
	shim_expect_report("binding device du-dev0 that is not registered");
	ddm_device_lock(&d->dev);
	d->dev.driver = &a->drv;
	KUNIT_EXPECT_EQ(test, ddm_device_bind_driver(&d->dev), -EINVAL);
	d->dev.driver = NULL;
	ddm_device_unlock(&d->dev);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
	KUNIT_EXPECT_EQ(test, du_bound(a), 0);
	ddm_put_device(&d->dev);
	ddm_driver_unregister(&a->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 0);
	du_teardown(test, c, 1);
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
	struct du_ctx *c = du_setup(test);
	struct du_drv *a = du_drv_new(test, c, "du-a", 0x1);
	struct du_dev *d = du_dev_new(c, 0);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, d);
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
	du_teardown(test, c, 1);
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
