// SPDX-License-Identifier: GPL-2.0
/*
 * One or more regression tests per lesson D1-D8 of the driver-model
 * locking history (see the project's design notes), each named after
 * its lesson and failing when the lesson is undone in lib/ddm/ (the
 * patch tests/defects/ddm/Dn-*.patch undoes it, and ctest checks that
 * the test then fails).  Each lesson starts with its story: what the
 * 2005 RFC did, what breaks it, the rule that holds now.  Shared with
 * KUnit in the kernel: kernel APIs only, no WARN on purpose.  The D2
 * window that needs a controlled interleaving is in the userspace suite
 * (tests/unit/userspace/ddm-userspace-test.c).
 */
#include <kunit/test.h>
#include <linux/ddm.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/errno.h>
#include <linux/kthread.h>
#include <linux/slab.h>

#include "ddm-test-fixture.h"

/* dl_: this file's own helpers; the fixture's are fx_ (ddm-test-fixture.h). */

/* --- D1 ---------------------------------------------------------------- */

/*
 * D1, the detach that waited for itself (RFC patch 9).
 *
 * The RFC's driver_detach() walked the driver's device list with
 * driver_for_each_device() and unbound each device from the walk's
 * callback.  An unbind takes the device off that list with
 * klist_remove(), which waits until nobody holds the node any more, and
 * the walk itself holds the node it stands on.  So the thread waited for
 * itself: unregistering a driver with one bound device hung (rmmod did,
 * in 2005).  No second thread is needed.
 *
 * The rule: a detach never unbinds from inside a walk.  It takes the
 * last bound device under the list lock, pins it, steps off the list,
 * then unbinds it under the device lock if it is still bound to this
 * driver; until the list is empty.  A walk of another thread standing
 * on a device still makes the unbind wait, as it must.
 *
 * tests/defects/ddm/D1-detach-unbinds-from-own-walk.patch puts the walk
 * back: both tests below hang in klist_remove(), which the shim's
 * hung-task bound (the kernel's hung-task detector) reports.
 *
 * This one: a driver with three bound devices unregisters, and all three
 * are unbound, each removed once.
 */
static void ddm_d1_driver_unregister_detaches_all(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_new(test, c, "fx-a", 0x7);
	struct fx_dev *devs[3];
	int i;

	for (i = 0; i < 3; i++)
		devs[i] = fx_dev_add(test, c, i);
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	KUNIT_ASSERT_EQ(test, fx_bound(a), 3);
	ddm_driver_unregister(&a->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 3);
	KUNIT_EXPECT_EQ(test, fx_bound(a), 0);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, atomic_read(&devs[i]->removes), 1);
		KUNIT_EXPECT_NULL(test, devs[i]->dev.driver);
		KUNIT_EXPECT_EQ(test, kref_read(&devs[i]->dev.kref), 2U);
	}
	for (i = 0; i < 3; i++)
		ddm_device_unregister(&devs[i]->dev);
	fx_teardown(test, c, 3);
}

struct dl_walker {
	struct fx_drv *drv;
	struct fx_dev *hold;		/* the walk stays on this one */
	struct completion holding, done;
	bool detach_came;		/* the detach took hold's lock */
	int removes_seen, seen;
	struct ddm_driver *driver_seen;
};

static int dl_walker_fn(struct ddm_device *dev, void *data)
{
	struct dl_walker *w = data;

	w->seen++;
	if (to_fx_dev(dev) != w->hold)
		return 0;
	complete(&w->holding);
	/*
	 * The detach unbinds the last device first, then comes for ours:
	 * it takes its lock and waits in klist_remove() for this walk.
	 */
	w->detach_came = fx_wait_until(mutex_is_locked(&dev->mutex), 900);
	/*
	 * A detach that did not wait would call ->remove now.  That it
	 * does not is the point, and what does not happen has no state to
	 * wait for: give it 200 ms to go wrong in.
	 */
	msleep(200);
	/* The unbind waited for us: ->remove has not run on it. */
	w->removes_seen = atomic_read(&w->hold->removes);
	w->driver_seen = dev->driver;
	return 0;
}

static int dl_walker_thread(void *data)
{
	struct dl_walker *w = data;

	ddm_driver_for_each_device(&w->drv->drv, NULL, w, dl_walker_fn);
	complete(&w->done);
	fx_park();
	return 0;
}

/*
 * D1, the other half of the rule: the detach waits for the walks of
 * others, only not for its own.
 *
 *  1. a kthread walks the driver's devices and stays on dev1;
 *  2. the driver unregisters: the detach unbinds dev2, then takes dev1's
 *     lock and waits in klist_remove() for the walker;
 *  3. the walker sees the lock taken and stays a while more, during
 *     which ->remove must not run on dev1 nor dev1 lose its driver;
 *  4. it steps on (dev2 is off the list: it saw two devices) and the
 *     detach unbinds dev1.
 */
static void ddm_d1_detach_waits_for_walker(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_new(test, c, "fx-a", 0x7);
	struct dl_walker *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct task_struct *t;
	struct fx_dev *devs[3];
	int i;

	KUNIT_ASSERT_NOT_NULL(test, w);
	for (i = 0; i < 3; i++)
		devs[i] = fx_dev_add(test, c, i);
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	w->drv = a;
	w->hold = devs[1];
	init_completion(&w->holding);
	init_completion(&w->done);
	t = kthread_run(dl_walker_thread, w, "dl-walker");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&w->holding,
				msecs_to_jiffies(900)), 0UL);
	ddm_driver_unregister(&a->drv);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&w->done,
				msecs_to_jiffies(900)), 0UL);
	kthread_stop(t);
	KUNIT_EXPECT_TRUE(test, w->detach_came);
	KUNIT_EXPECT_EQ(test, w->removes_seen, 0);
	KUNIT_EXPECT_PTR_EQ(test, w->driver_seen, &a->drv);
	KUNIT_EXPECT_EQ(test, w->seen, 2);	/* dev2 was unbound first */
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 3);
	for (i = 0; i < 3; i++)
		ddm_device_unregister(&devs[i]->dev);
	fx_teardown(test, c, 3);
}

/* --- D2 ---------------------------------------------------------------- */

/*
 * D2, the device nobody probed (RFC patches 7/8).
 *
 * The RFC's bus_add_device() probed a new device first (device_attach())
 * and put it on the bus's device list after; bus_add_driver() likewise
 * attached a new driver before putting it on the driver list.  The
 * window between the two steps loses a binding:
 *
 *  1. device X is added: its attach walks the bus's drivers, finds none
 *     for it, and is done;
 *  2. driver B registers: its attach walks the bus's devices, and X is
 *     not on the list yet;
 *  3. X joins the list.  Nobody will probe X with B again: X stays
 *     unbound for good although its driver is registered.
 *
 * The rule: join the bus list first, then probe; whichever of the two
 * comes second then finds the first.
 *
 * tests/defects/ddm/D2-bus-list-joined-after-probe.patch moves the
 * joins back after the attach.  The two tests here show the order
 * without a second thread: a probe (which runs inside the attach) looks
 * for its own device, or its own driver, on the bus list.  The window
 * itself is driven in the userspace suite (ddm_d2_*_window).
 */

static int dl_is_dev(struct ddm_device *dev, void *data)
{
	return dev == data;
}

static int dl_is_drv(struct ddm_driver *drv, void *data)
{
	return drv == data;
}

static void dl_probe_looks_for_device(struct fx_drv *d, struct ddm_device *dev)
{
	int *found = d->priv;

	*found += ddm_bus_for_each_dev(dev->bus, NULL, dev, dl_is_dev);
}

static void dl_probe_looks_for_driver(struct fx_drv *d, struct ddm_device *dev)
{
	int *found = d->priv;

	*found += ddm_bus_for_each_drv(dev->bus, NULL, &d->drv, dl_is_drv);
}

/*
 * D2, the device's side: a device is on the bus list while it is
 * probed, so a driver registering meanwhile would find it.  Undone, the
 * probe does not find its own device there.
 */
static void ddm_d2_device_on_bus_before_probe(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_new(test, c, "fx-a", 0x1);
	struct fx_dev *d;
	int found = 0;

	a->probe_hook = dl_probe_looks_for_device;
	a->priv = &found;
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	d = fx_dev_add(test, c, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);
	KUNIT_EXPECT_EQ_MSG(test, found, 1,
			    "device not on its bus list while probed");
	ddm_device_unregister(&d->dev);
	ddm_driver_unregister(&a->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	fx_teardown(test, c, 1);
}

/*
 * D2, the driver's side: a driver is on the bus list while it probes
 * the devices there, so a device added meanwhile would find it.
 */
static void ddm_d2_driver_on_bus_before_attach(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_new(test, c, "fx-a", 0x3);
	struct fx_dev *devs[2];
	int found = 0;

	devs[0] = fx_dev_add(test, c, 0);
	devs[1] = fx_dev_add(test, c, 1);
	a->probe_hook = dl_probe_looks_for_driver;
	a->priv = &found;
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 2);
	KUNIT_EXPECT_EQ_MSG(test, found, 2,
			    "driver not on its bus list while probing");
	ddm_device_unregister(&devs[0]->dev);
	ddm_device_unregister(&devs[1]->dev);
	ddm_driver_unregister(&a->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 2);
	fx_teardown(test, c, 2);
}

/* --- D3 ---------------------------------------------------------------- */

/*
 * D3, the unbind that believed a stale driver (RFC patch 9).
 *
 * The RFC's device_release_driver() read dev->driver before it took the
 * device lock, and did not look again once it had it.  A driver
 * unregister and a device unregister of one bound device X then both
 * unbind it:
 *
 *  1. the driver's detach takes X's lock and calls ->remove;
 *  2. meanwhile the device unregister leaves the bus, reads X->driver
 *     (still set) and blocks on X's lock;
 *  3. the detach finishes: X->driver = NULL, unlock;
 *  4. the device unregister gets the lock and unbinds X again from what
 *     it read: a second ->remove, for a device already unbound, and a
 *     second klist removal of a node no longer on the list.
 *
 * The rule: dev->driver is read, and re-checked, under the device lock.
 *
 * tests/defects/ddm/D3-release-reads-driver-unlocked.patch moves the
 * read back before the lock.  The test holds the ->remove of step 1
 * open until the other thread has left the bus list, the last thing it
 * does that can be seen before step 2's read, and a little longer.
 */

struct dl_d3 {
	struct fx_dev *victim;
	struct completion go, done;
	bool left_bus;			/* seen in the first ->remove */
};

static int dl_d3_thread(void *data)
{
	struct dl_d3 *s = data;

	if (fx_wait_or_stop(&s->go)) {
		ddm_device_unregister(&s->victim->dev);
		complete(&s->done);
	}
	fx_park();
	return 0;
}

/* The first ->remove lets the device unregister start, and lingers. */
static void dl_d3_remove_hook(struct fx_drv *d, struct ddm_device *dev)
{
	struct dl_d3 *s = d->priv;

	if (atomic_read(&d->removes) != 1)
		return;
	complete(&s->go);
	/* Off the bus list: next it reads dev->driver and takes the lock. */
	s->left_bus = fx_wait_until(!klist_node_attached(&dev->knode_bus),
				    900);
	/*
	 * From there to asleep on the device lock we hold is a few
	 * instructions that change no state: give them 100 ms.
	 */
	msleep(100);
}

/*
 * D3: a driver unregister and a device unregister of one bound device
 * race (steps 1-4 above); the device must be removed exactly once.
 */
static void ddm_d3_unbind_race_removes_once(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_new(test, c, "fx-a", 0x1);
	struct dl_d3 *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	struct task_struct *t;

	KUNIT_ASSERT_NOT_NULL(test, s);
	init_completion(&s->go);
	init_completion(&s->done);
	a->remove_hook = dl_d3_remove_hook;
	a->priv = s;
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	s->victim = fx_dev_add(test, c, 0);
	KUNIT_ASSERT_PTR_EQ(test, s->victim->dev.driver, &a->drv);
	t = kthread_run(dl_d3_thread, s, "dl-d3");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));

	ddm_driver_unregister(&a->drv);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&s->done,
				msecs_to_jiffies(900)), 0UL);
	kthread_stop(t);
	KUNIT_EXPECT_TRUE(test, s->left_bus);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&c->removes), 1,
			    "->remove called more than once for one device");
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&c->unbound_removes), 0,
			    "->remove called for a device already unbound");
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);
	KUNIT_EXPECT_EQ(test, fx_bound(a), 0);
	fx_teardown(test, c, 1);
}

/* --- D4 ---------------------------------------------------------------- */

/*
 * D4, the device bound twice (RFC patches 1/2).
 *
 * The RFC's driver_probe_device() did not ask, under the device lock,
 * whether the device was bound already.  Probing a bound device (by hand,
 * or from the attach of another matching driver) called the new
 * driver's ->probe on a device another driver owned, overwrote
 * dev->driver, and re-initialised the device's node while it was still
 * linked on the first driver's list.  No race is needed: the check was
 * simply missing.
 *
 * The rule: a probe of a bound device fails with -EBUSY, whichever the
 * driver, and changes nothing.
 *
 * tests/defects/ddm/D4-no-already-bound-check.patch drops the check.
 * The two tests: an explicit probe of a bound device, by another driver
 * and by its own; and a driver registering (and attaching) while every
 * device is bound to another.
 */

/* D4: probing a bound device fails with -EBUSY, whatever the driver. */
static void ddm_d4_probe_of_bound_device_is_busy(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_new(test, c, "fx-a", 0x1);
	struct fx_drv *b = fx_drv_new(test, c, "fx-b", 0x1);
	struct fx_dev *d;
	int ret;

	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&b->drv), 0);
	d = fx_dev_add(test, c, 0);
	KUNIT_ASSERT_PTR_EQ(test, d->dev.driver, &a->drv);
	/* Asserts: going on after a double bind would corrupt the lists. */
	ret = ddm_driver_probe_device(&b->drv, &d->dev);
	KUNIT_ASSERT_EQ_MSG(test, ret, -EBUSY,
			    "a bound device was probed by another driver");
	ret = ddm_driver_probe_device(&a->drv, &d->dev);
	KUNIT_ASSERT_EQ_MSG(test, ret, -EBUSY,
			    "a bound device was probed again by its driver");
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->probes), 0);
	KUNIT_EXPECT_PTR_EQ(test, d->dev.driver, &a->drv);
	KUNIT_EXPECT_EQ(test, fx_bound(a), 1);
	KUNIT_EXPECT_EQ(test, fx_bound(b), 0);
	KUNIT_EXPECT_EQ(test, kref_read(&d->dev.kref), 3U);
	ddm_device_unregister(&d->dev);
	ddm_driver_unregister(&b->drv);
	ddm_driver_unregister(&a->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->removes), 0);
	fx_teardown(test, c, 1);
}

/* D4: a driver registering later leaves devices bound elsewhere alone. */
static void ddm_d4_driver_attach_skips_bound_devices(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_new(test, c, "fx-a", 0x7);
	struct fx_drv *b = fx_drv_new(test, c, "fx-b", 0x7);
	struct fx_dev *devs[3];
	int i, probes;

	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	for (i = 0; i < 3; i++)
		devs[i] = fx_dev_add(test, c, i);
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&b->drv), 0);
	probes = atomic_read(&b->probes);
	KUNIT_ASSERT_EQ_MSG(test, probes, 0,
			    "a new driver probed devices bound elsewhere");
	KUNIT_ASSERT_EQ(test, ddm_driver_attach(&b->drv), 0);
	probes = atomic_read(&b->probes);
	KUNIT_ASSERT_EQ_MSG(test, probes, 0,
			    "driver_attach probed devices bound elsewhere");
	KUNIT_EXPECT_EQ(test, fx_bound(a), 3);
	KUNIT_EXPECT_EQ(test, fx_bound(b), 0);
	/* Once unbound, a device is free for another driver's attach. */
	ddm_device_release_driver(&devs[1]->dev);
	KUNIT_EXPECT_EQ(test, ddm_driver_attach(&b->drv), 0);
	KUNIT_EXPECT_PTR_EQ(test, devs[1]->dev.driver, &b->drv);
	for (i = 0; i < 3; i++)
		ddm_device_unregister(&devs[i]->dev);
	ddm_driver_unregister(&a->drv);
	ddm_driver_unregister(&b->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->removes), 1);
	fx_teardown(test, c, 3);
}

/* --- D5 ---------------------------------------------------------------- */

/*
 * D5, the check the RFC got right.
 *
 * The RFC's bus_for_each_dev() and friends returned -EINVAL for a NULL
 * bus (or driver) instead of walking a list inside a NULL pointer.
 * Nothing broke here; the lesson is to keep it.  A NULL bus is a quiet
 * -EINVAL (a caller's "nothing to walk"), unlike a NULL callback, which
 * is a bug and is reported (see ddm_misuse_null_arguments).
 *
 * tests/defects/ddm/D5-null-bus-not-checked.patch drops the NULL-bus
 * check from ddm_bus_for_each_dev(): the walk then dereferences NULL.
 */

static int dl_called;

static int dl_mark_dev(struct ddm_device *dev, void *data)
{
	dl_called++;
	return 0;
}

static int dl_mark_drv(struct ddm_driver *drv, void *data)
{
	dl_called++;
	return 0;
}

/* D5: the walks of a NULL bus or driver return -EINVAL (quietly). */
static void ddm_d5_null_bus_or_driver_einval(struct kunit *test)
{
	dl_called = 0;
	KUNIT_EXPECT_EQ(test, ddm_bus_for_each_dev(NULL, NULL, NULL,
						   dl_mark_dev), -EINVAL);
	KUNIT_EXPECT_EQ(test, ddm_bus_for_each_drv(NULL, NULL, NULL,
						   dl_mark_drv), -EINVAL);
	KUNIT_EXPECT_EQ(test, ddm_driver_for_each_device(NULL, NULL, NULL,
							 dl_mark_dev), -EINVAL);
	KUNIT_EXPECT_EQ(test, ddm_bus_shutdown(NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, dl_called, 0);
}

/* --- D6 ---------------------------------------------------------------- */

/*
 * D6, the preset driver that stayed after its bind failed.
 *
 * A device may come to ddm_device_add() with `driver` already set, to be
 * bound to it without a probe.  If that bind fails (the driver is not
 * registered, or an allocation on the bind path fails), the add still
 * succeeds, as device_add() does: not finding a driver is not an error.
 * ddm used to leave `driver` pointing at the driver anyway.  What
 * followed: every later probe of the device found `driver` set and
 * returned -EBUSY, so no driver could ever take it; unregistering the
 * device ran the driver's ->remove for a device it never bound and told
 * listeners "unbind" with no "bind" before it; and once the driver had
 * been unregistered and freed, unregistering the device read the freed
 * driver.
 *
 * The rule, 6.1's __device_attach(): when the bind of a preset driver
 * fails, dev->driver is cleared under the device lock, and the add
 * returns success with the device unbound.
 *
 * tests/defects/ddm/D6-failed-preset-bind-keeps-driver.patch leaves
 * dev->driver set.  This test takes the "not registered" form: the
 * device's preset driver was never registered, another driver that
 * matches it registers later and must get it, and the preset driver's
 * memory is freed before the device goes, so any read of it afterwards
 * is a use-after-free (reported at once by the userspace shim's guarded
 * allocator).  The allocation-failure form is in the userspace suite
 * (ddm_d6_preset_bind_alloc_failure_clears_driver).
 */

/* Drain @l, counting the events of @obj by action. */
static void dl_count_events(struct ddm_listener *l, struct ddm_object *obj,
			    unsigned int counts[DDM_UEVENT_NR])
{
	struct ddm_uevent *ev;

	while (!IS_ERR_OR_NULL(ev = ddm_listener_poll(l))) {
		if (ev->obj == obj && ev->action < DDM_UEVENT_NR)
			counts[ev->action]++;
		ddm_uevent_free(ev);
	}
}

static void ddm_d6_failed_preset_bind_clears_driver(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *tmpl = fx_drv_new(test, c, "fx-a", 0);
	struct fx_drv *b = fx_drv_new(test, c, "fx-b", FX_ID(0));
	unsigned int counts[DDM_UEVENT_NR] = { };
	struct ddm_listener *l;
	struct ddm_object *obj;
	struct fx_drv *a;
	struct fx_dev *d;

	/* No assertions from here on: the listener must be unsubscribed. */
	l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	/* a is freed before the device goes: kzalloc(), not kunit memory. */
	a = kzalloc(sizeof(*a), GFP_KERNEL);
	d = fx_dev_alloc(c, 0);
	if (!l || !a || !d) {
		kfree(a);
		kfree(d);
		KUNIT_FAIL(test, "out of memory");
		return;
	}
	*a = *tmpl;
	ddm_listener_init(l, "dl-d6");
	KUNIT_EXPECT_EQ(test, ddm_listener_subscribe(l), 0);

	ddm_device_initialize(&d->dev);
	d->dev.driver = &a->drv;	/* never registered */
	if (ddm_device_add(&d->dev)) {
		KUNIT_FAIL(test, "ddm_device_add() failed");
		ddm_put_device(&d->dev);
		ddm_listener_unsubscribe(l);
		ddm_listener_flush(l);
		kfree(a);
		return;
	}
	KUNIT_EXPECT_NULL_MSG(test, d->dev.driver,
			      "a failed preset bind kept dev->driver");
	KUNIT_EXPECT_FALSE(test, ddm_device_is_bound(&d->dev));
	obj = ddm_object_get(d->dev.obj);
	/* Nothing may refer to a any more. */
	kfree(a);

	/* A later probe works: b registers and takes the device. */
	KUNIT_EXPECT_EQ(test, ddm_driver_register(&b->drv), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->probes), 1);
	KUNIT_EXPECT_PTR_EQ(test, d->dev.driver, &b->drv);
	KUNIT_EXPECT_EQ(test, fx_bound(b), 1);

	/* Unregistering reads nothing of a; b's ->remove runs, once. */
	ddm_device_unregister(&d->dev);
	ddm_driver_unregister(&b->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->removes), 1);

	/* Listeners saw add, bind, unbind, remove: no unbind without bind. */
	ddm_listener_unsubscribe(l);
	dl_count_events(l, obj, counts);
	ddm_listener_flush(l);
	ddm_object_put(obj);
	KUNIT_EXPECT_EQ(test, counts[DDM_UEVENT_ADD], 1U);
	KUNIT_EXPECT_EQ(test, counts[DDM_UEVENT_BIND], 1U);
	KUNIT_EXPECT_EQ(test, counts[DDM_UEVENT_UNBIND], 1U);
	KUNIT_EXPECT_EQ(test, counts[DDM_UEVENT_REMOVE], 1U);
	fx_teardown(test, c, 1);
}

/* --- D8 ---------------------------------------------------------------- */

/*
 * D8, the bus controller whose probe registers its children.
 *
 * A driver for a bus controller (a USB hub, an I2C adapter, a PCI
 * bridge) registers the devices behind the controller from its ->probe,
 * which runs under the controller's device lock; registering a child
 * probes it, under the child's device lock.  So one device lock is taken
 * inside another, and the controller's ->remove, unregistering the
 * children, does the same.  Every device lock was initialised at one
 * place, so lockdep saw one class taken twice: "possible recursive
 * locking detected", in userspace and under PROVE_LOCKING alike, for a
 * nesting that is correct (parent before child) and that no fixed
 * subclass could describe (children may be controllers too).
 *
 * The rule, 6.1's device_initialize(): the device lock is in lockdep's
 * novalidate class.  Recursion on one device lock is still reported.
 *
 * tests/defects/ddm/D8-device-lock-one-class.patch takes the device lock
 * out of the novalidate class: the test fails with lockdep's report.
 */
struct dl_d8 {
	struct fx_ctx *c;
	struct fx_dev *child;
	int ret;
};

/* The controller's probe: register the device behind it. */
static void dl_d8_probe_hook(struct fx_drv *d, struct ddm_device *dev)
{
	struct dl_d8 *w = d->priv;

	w->child = fx_dev_alloc(w->c, 1);
	w->ret = w->child ? ddm_device_register(&w->child->dev) : -ENOMEM;
}

/* The controller's remove: unregister it again. */
static void dl_d8_remove_hook(struct fx_drv *d, struct ddm_device *dev)
{
	struct dl_d8 *w = d->priv;

	if (w->child && !w->ret)
		ddm_device_unregister(&w->child->dev);
}

static void ddm_d8_probe_registers_child(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *ctrl = fx_drv_new(test, c, "fx-ctrl", FX_ID(0));
	struct fx_drv *leaf = fx_drv_add(test, c, "fx-leaf", FX_ID(1));
	struct dl_d8 *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct fx_dev *d;

	KUNIT_ASSERT_NOT_NULL(test, w);
	w->c = c;
	ctrl->priv = w;
	ctrl->probe_hook = dl_d8_probe_hook;
	ctrl->remove_hook = dl_d8_remove_hook;
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&ctrl->drv), 0);
	d = fx_dev_add(test, c, 0);

	KUNIT_EXPECT_PTR_EQ(test, d->dev.driver, &ctrl->drv);
	KUNIT_ASSERT_EQ(test, w->ret, 0);
	/* The child was probed from inside the controller's probe. */
	KUNIT_EXPECT_PTR_EQ(test, w->child->dev.driver, &leaf->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&leaf->probes), 1);

	ddm_device_unregister(&d->dev);
	KUNIT_EXPECT_EQ(test, atomic_read(&leaf->removes), 1);
	ddm_driver_unregister(&ctrl->drv);
	ddm_driver_unregister(&leaf->drv);
	fx_teardown(test, c, 2);
}

static struct kunit_case ddm_lessons_test_cases[] = {
	KUNIT_CASE(ddm_d1_driver_unregister_detaches_all),
	KUNIT_CASE(ddm_d1_detach_waits_for_walker),
	KUNIT_CASE(ddm_d2_device_on_bus_before_probe),
	KUNIT_CASE(ddm_d2_driver_on_bus_before_attach),
	KUNIT_CASE(ddm_d3_unbind_race_removes_once),
	KUNIT_CASE(ddm_d4_probe_of_bound_device_is_busy),
	KUNIT_CASE(ddm_d4_driver_attach_skips_bound_devices),
	KUNIT_CASE(ddm_d5_null_bus_or_driver_einval),
	KUNIT_CASE(ddm_d6_failed_preset_bind_clears_driver),
	KUNIT_CASE(ddm_d8_probe_registers_child),
	{}
};

static struct kunit_suite ddm_lessons_test_suite = {
	.name = "ddm_lessons",
	.test_cases = ddm_lessons_test_cases,
};

kunit_test_suites(&ddm_lessons_test_suite);

MODULE_LICENSE("GPL");
