/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fixture of the ddm KUnit suites, written once for all of them.
 *
 *  - a bus, struct fx_ctx: fx_setup() registers it, fx_teardown() checks
 *    what every test must leave (the devices it released, no driver
 *    callback without the device lock, no ->remove of an unbound device)
 *    and unregisters it;
 *  - drivers, struct fx_drv (fx_drv_new(), fx_drv_add()): they match the
 *    devices whose ids are in their mask (FX_ID()), count every
 *    callback, fail the probe of one device if told to
 *    (fx_drv_fail_probe()), and run a test's hooks inside ->probe,
 *    ->remove and ->suspend;
 *  - devices, struct fx_dev (fx_dev_new(), fx_dev_add(), fx_dev_alloc(),
 *    fx_dev_new_kept()), named "fx-dev<id>", released into the bus's
 *    count;
 *  - walks that count (fx_bound(), fx_on_bus()), kthread helpers
 *    (fx_park(), fx_wait_or_stop(), fx_wait_until());
 *  - for the hotplug and class suites: a subscribed listener per case
 *    (fx_listener_init() and fx_listener_exit() as the suite's .init and
 *    .exit), fx_expect_event(), and a udev-like listener thread
 *    (struct fx_udev).
 *
 * Shared with the kernel like the suites that include it: kernel headers
 * and kernel APIs only, nothing may WARN.  Everything is static inline,
 * so that each test file stays an object (a module) of its own and
 * carries only what it uses.  In the kernel this file sits beside the
 * suites in lib/; the userspace-only suites (tests/unit/userspace/)
 * include it as "../ddm-test-fixture.h".
 */
#ifndef _DDM_TEST_FIXTURE_H
#define _DDM_TEST_FIXTURE_H

#include <kunit/test.h>
#include <linux/ddm.h>
#include <linux/ddm_object.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

/* Device ids run from 0 to FX_DEVS - 1: a bit each in a driver's mask. */
#define FX_DEVS		16
#define FX_ID(i)	(1UL << (i))
#define FX_MAGIC	0x64646d64	/* "ddmd": a device not released */

/* --- the bus -------------------------------------------------------------- */

struct fx_ctx {
	struct ddm_bus bus;
	atomic_t released;		/* devices released */
	atomic_t unlocked_calls;	/* driver callbacks without the lock */
	atomic_t removes;		/* every ->remove on the bus... */
	atomic_t unbound_removes;	/* ...and those of an unbound device */
	/* Per device id: they outlive the devices. */
	atomic_t id_probes[FX_DEVS], id_removes[FX_DEVS];
	/* Called from the bus's match, for tests that step in there. */
	void (*match_hook)(struct fx_ctx *c, struct ddm_device *dev,
			   struct ddm_driver *drv);
	void *priv;			/* for match_hook */
};

/* --- drivers and devices -------------------------------------------------- */

struct fx_drv {
	struct ddm_driver drv;
	unsigned long mask;		/* ids of the devices it matches */
	int fail_id, fail_ret;		/* see fx_drv_fail_probe() */
	int suspend_ret;		/* what ->suspend returns */
	atomic_t probes, removes, suspends, resumes, shutdowns;
	/*
	 * What a test does inside a callback: run with the device lock
	 * held, after the counts (a probe hook before ->probe returns).
	 */
	void (*probe_hook)(struct fx_drv *d, struct ddm_device *dev);
	void (*remove_hook)(struct fx_drv *d, struct ddm_device *dev);
	void (*suspend_hook)(struct fx_drv *d, struct ddm_device *dev);
	void *priv;			/* for the hooks */
};

struct fx_dev {
	struct ddm_device dev;
	struct fx_ctx *ctx;
	int id;
	int magic;			/* FX_MAGIC until released */
	bool kept;			/* the test's memory: not freed */
	atomic_t probes, removes;
	char name[16];			/* "fx-dev<id>" */
};

static inline struct fx_dev *to_fx_dev(struct ddm_device *dev)
{
	return container_of(dev, struct fx_dev, dev);
}

static inline struct fx_drv *to_fx_drv(struct ddm_driver *drv)
{
	return container_of(drv, struct fx_drv, drv);
}

static inline int fx_match(struct ddm_device *dev, struct ddm_driver *drv)
{
	struct fx_ctx *c = to_fx_dev(dev)->ctx;

	if (c->match_hook)
		c->match_hook(c, dev, drv);
	return !!(READ_ONCE(to_fx_drv(drv)->mask) & FX_ID(to_fx_dev(dev)->id));
}

static inline void fx_check_locked(struct ddm_device *dev)
{
	if (!mutex_is_locked(&dev->mutex))
		atomic_inc(&to_fx_dev(dev)->ctx->unlocked_calls);
}

static inline int fx_probe(struct ddm_device *dev)
{
	struct fx_drv *d = to_fx_drv(dev->driver);
	struct fx_dev *fd = to_fx_dev(dev);

	fx_check_locked(dev);
	atomic_inc(&d->probes);
	atomic_inc(&fd->probes);
	atomic_inc(&fd->ctx->id_probes[fd->id]);
	if (d->probe_hook)
		d->probe_hook(d, dev);
	return fd->id == d->fail_id ? d->fail_ret : 0;
}

static inline void fx_remove(struct ddm_device *dev)
{
	struct fx_dev *fd = to_fx_dev(dev);
	struct fx_drv *d;

	fx_check_locked(dev);
	atomic_inc(&fd->ctx->removes);
	/* Only a broken core calls ->remove on an unbound device (D3). */
	if (!dev->driver) {
		atomic_inc(&fd->ctx->unbound_removes);
		return;
	}
	d = to_fx_drv(dev->driver);
	atomic_inc(&d->removes);
	atomic_inc(&fd->removes);
	atomic_inc(&fd->ctx->id_removes[fd->id]);
	if (d->remove_hook)
		d->remove_hook(d, dev);
}

static inline int fx_suspend(struct ddm_device *dev)
{
	struct fx_drv *d = to_fx_drv(dev->driver);

	fx_check_locked(dev);
	atomic_inc(&d->suspends);
	if (d->suspend_hook)
		d->suspend_hook(d, dev);
	return d->suspend_ret;
}

static inline int fx_resume(struct ddm_device *dev)
{
	fx_check_locked(dev);
	atomic_inc(&to_fx_drv(dev->driver)->resumes);
	return 0;
}

static inline void fx_shutdown(struct ddm_device *dev)
{
	fx_check_locked(dev);
	atomic_inc(&to_fx_drv(dev->driver)->shutdowns);
}

static inline void fx_release(struct ddm_device *dev)
{
	struct fx_dev *fd = to_fx_dev(dev);

	atomic_inc(&fd->ctx->released);
	fd->magic = 0;
	if (!fd->kept)
		kfree(fd);
}

/* A registered bus; fx_teardown() unregisters it. */
static inline struct fx_ctx *fx_setup(struct kunit *test)
{
	struct fx_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->bus.name = "fx-bus";
	c->bus.match = fx_match;
	KUNIT_ASSERT_EQ(test, ddm_bus_register(&c->bus), 0);
	return c;
}

/*
 * The end of every test: @released devices were released, no callback
 * ran without the device lock, no ->remove came for an unbound device;
 * then the bus goes.
 */
static inline void fx_teardown(struct kunit *test, struct fx_ctx *c,
			       int released)
{
	KUNIT_EXPECT_EQ(test, atomic_read(&c->released), released);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->unlocked_calls), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->unbound_removes), 0);
	ddm_bus_unregister(&c->bus);
	KUNIT_EXPECT_FALSE(test, ddm_bus_is_registered(&c->bus));
}

/* A driver for @c's bus, not registered; @name may be NULL (misuse). */
static inline struct fx_drv *fx_drv_new(struct kunit *test, struct fx_ctx *c,
					const char *name, unsigned long mask)
{
	struct fx_drv *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, d);
	d->drv.name = name;
	d->drv.bus = &c->bus;
	d->drv.probe = fx_probe;
	d->drv.remove = fx_remove;
	d->drv.suspend = fx_suspend;
	d->drv.resume = fx_resume;
	d->drv.shutdown = fx_shutdown;
	d->mask = mask;
	d->fail_id = -1;
	return d;
}

/* From now on @d's probe of device @id returns @ret (@id -1: none fails). */
static inline void fx_drv_fail_probe(struct fx_drv *d, int id, int ret)
{
	d->fail_id = id;
	d->fail_ret = ret;
}

static inline struct fx_drv *fx_drv_add(struct kunit *test, struct fx_ctx *c,
					const char *name, unsigned long mask)
{
	struct fx_drv *d = fx_drv_new(test, c, name, mask);

	KUNIT_ASSERT_EQ(test, ddm_driver_register(&d->drv), 0);
	return d;
}

static inline void fx_dev_init(struct fx_dev *d, struct fx_ctx *c, int id)
{
	d->ctx = c;
	d->id = id;
	d->magic = FX_MAGIC;
	scnprintf(d->name, sizeof(d->name), "fx-dev%d", id);
	d->dev.name = d->name;
	d->dev.bus = &c->bus;
	d->dev.release = fx_release;
}

/*
 * A device for @c's bus, not registered, freed by its release; NULL if
 * out of memory (or @id out of range): for kthreads, which cannot assert,
 * and for allocation-failure sweeps.
 */
static inline struct fx_dev *fx_dev_alloc(struct fx_ctx *c, int id)
{
	struct fx_dev *d;

	if (id < 0 || id >= FX_DEVS)
		return NULL;
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (d)
		fx_dev_init(d, c, id);
	return d;
}

static inline struct fx_dev *fx_dev_new(struct kunit *test, struct fx_ctx *c,
					int id)
{
	struct fx_dev *d = fx_dev_alloc(c, id);

	KUNIT_ASSERT_NOT_NULL(test, d);
	return d;
}

/*
 * A device in the test's memory (kunit_kzalloc()): its release frees
 * nothing, for a test that looks at a device after its release.
 */
static inline struct fx_dev *fx_dev_new_kept(struct kunit *test,
					     struct fx_ctx *c, int id)
{
	struct fx_dev *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, d);
	KUNIT_ASSERT_TRUE(test, id >= 0 && id < FX_DEVS);
	fx_dev_init(d, c, id);
	d->kept = true;
	return d;
}

static inline struct fx_dev *fx_dev_add(struct kunit *test, struct fx_ctx *c,
					int id)
{
	struct fx_dev *d = fx_dev_new(test, c, id);

	KUNIT_ASSERT_EQ(test, ddm_device_register(&d->dev), 0);
	return d;
}

static inline void fx_unregister_all(struct fx_dev **devs, int n)
{
	int i;

	for (i = 0; i < n; i++)
		ddm_device_unregister(&devs[i]->dev);
}

/* --- walks ---------------------------------------------------------------- */

static inline int fx_count(struct ddm_device *dev, void *data)
{
	(*(int *)data)++;
	return 0;
}

/* The number of devices bound to @d, by walking its list; -1 on error. */
static inline int fx_bound(struct fx_drv *d)
{
	int n = 0;

	if (ddm_driver_for_each_device(&d->drv, NULL, &n, fx_count))
		return -1;
	return n;
}

/* The number of devices on @c's bus, by walking it; -1 on error. */
static inline int fx_on_bus(struct fx_ctx *c)
{
	int n = 0;

	if (ddm_bus_for_each_dev(&c->bus, NULL, &n, fx_count))
		return -1;
	return n;
}

/* --- kthreads ------------------------------------------------------------- */

/* In the kernel a kthread must not return before kthread_stop(). */
static inline void fx_park(void)
{
	while (!kthread_should_stop())
		usleep_range(1000, 2000);
}

/* Wait for @done, or give up (false) when the kthread is told to stop. */
static inline bool fx_wait_or_stop(struct completion *done)
{
	while (!wait_for_completion_timeout(done, msecs_to_jiffies(50)))
		if (kthread_should_stop())
			return false;
	return true;
}

/*
 * Wait up to @ms milliseconds for @cond, looking at it every millisecond
 * or two: the handshake for a state another thread reaches that nothing
 * signals (a lock it took, a list it left, a count it reached).  True if
 * @cond holds.  @cond is evaluated more than once.
 */
#define fx_wait_until(cond, ms) ({					\
	unsigned long __fx_end = jiffies + msecs_to_jiffies(ms);	\
									\
	while (!(cond) && time_before(jiffies, __fx_end))		\
		usleep_range(1000, 2000);				\
	(cond);								\
})

/* --- listeners (hotplug and class suites) --------------------------------- */

/* Suite .init: every case starts with one subscribed listener, test->priv. */
static inline int fx_listener_init(struct kunit *test)
{
	struct ddm_listener *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);

	if (!l)
		return -ENOMEM;
	ddm_listener_init(l, "fx-listener");
	test->priv = l;
	return ddm_listener_subscribe(l);
}

/* Suite .exit, also after a failed assertion: no listener outlives it. */
static inline void fx_listener_exit(struct kunit *test)
{
	struct ddm_listener *l = test->priv;

	if (l->subscribed)
		ddm_listener_unsubscribe(l);
	ddm_listener_flush(l);
}

static inline struct ddm_listener *fx_listener(struct kunit *test)
{
	return test->priv;
}

/* Take the next event of @l, which must be @action on @obj: its devt. */
static inline ddm_devt_t fx_expect_event(struct kunit *test,
					 struct ddm_listener *l,
					 enum ddm_uevent_action action,
					 struct ddm_object *obj)
{
	struct ddm_uevent *ev = ddm_listener_poll(l);
	ddm_devt_t devt;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ev);
	KUNIT_EXPECT_STREQ(test, ddm_uevent_action_name(ev->action),
			   ddm_uevent_action_name(action));
	KUNIT_EXPECT_PTR_EQ(test, ev->obj, obj);
	devt = ev->devt;
	ddm_uevent_free(ev);
	return devt;
}

/* Where (@obj, @action) is among @n events taken off a queue, or -1. */
static inline int fx_event_at(struct ddm_uevent **evs, int n,
			      struct ddm_object *obj,
			      enum ddm_uevent_action action)
{
	int i;

	for (i = 0; i < n; i++)
		if (evs[i]->obj == obj && evs[i]->action == action)
			return i;
	return -1;
}

static inline void fx_expect_no_event(struct kunit *test,
				      struct ddm_listener *l)
{
	KUNIT_EXPECT_PTR_EQ(test, ddm_listener_poll(l), ERR_PTR(-EAGAIN));
}

/*
 * A small udev: a kthread that, on the "add" of an object with a device
 * number, reads its `dev` attribute at once, as udev does to make the
 * node.  A miss is an "add" that came before the attribute; a wrong one,
 * an attribute that is not the event's number.  Whoever emits an "add"
 * waits for fx_udev_handled() before removing the object again, so a
 * miss can only mean an attribute not made yet.
 */
struct fx_udev {
	struct ddm_listener *l;
	struct task_struct *task;
	struct completion handled;	/* one per "add" with a number */
	struct completion done;		/* the queue has ended */
	unsigned int events, adds, misses, wrong;
};

static inline int fx_udev_thread(void *data)
{
	struct fx_udev *u = data;
	struct ddm_uevent *ev;
	char buf[32], want[32];

	while (!IS_ERR(ev = ddm_listener_next(u->l))) {
		u->events++;
		if (ev->action == DDM_UEVENT_ADD && ev->devt) {
			u->adds++;
			scnprintf(want, sizeof(want), "%u:%u",
				  DDM_MAJOR(ev->devt), DDM_MINOR(ev->devt));
			if (ddm_object_read_attr(ev->obj, "dev", buf,
						 sizeof(buf)) < 0)
				u->misses++;
			else if (strcmp(buf, want))
				u->wrong++;
			complete(&u->handled);
		}
		ddm_uevent_free(ev);
	}
	complete(&u->done);
	fx_park();
	return 0;
}

static inline void fx_udev_start(struct kunit *test, struct fx_udev *u,
				 struct ddm_listener *l)
{
	u->l = l;
	init_completion(&u->handled);
	init_completion(&u->done);
	u->task = kthread_run(fx_udev_thread, u, "fx-udev");
	KUNIT_ASSERT_FALSE(test, IS_ERR(u->task));
}

/* Wait until the listener has handled the "add" just emitted. */
static inline bool fx_udev_handled(struct fx_udev *u)
{
	return wait_for_completion_timeout(&u->handled,
					   msecs_to_jiffies(2000)) != 0;
}

/* Unsubscribe the listener, let the thread reach the end, stop it. */
static inline void fx_udev_stop(struct kunit *test, struct fx_udev *u)
{
	KUNIT_EXPECT_EQ(test, ddm_listener_unsubscribe(u->l), 0);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&u->done,
				msecs_to_jiffies(2000)), 0UL);
	kthread_stop(u->task);
}

#endif /* _DDM_TEST_FIXTURE_H */
