// SPDX-License-Identifier: GPL-2.0
/*
 * Misuse of the ddm binding core's API: NULL arguments, registering or
 * unregistering twice, binding what cannot be bound, devices without a
 * release, busy buses, walks and probes across buses, sleeping in
 * atomic context.  Each must be reported (a WARN, which the shim
 * records and each case expects by its text) and survived, leaving the
 * core as it was.  Userspace only: in the kernel these WARNs would
 * taint it.
 */
#include <kunit/test.h>
#include <linux/ddm.h>
#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <shim/explore.h>
#include <shim/shim.h>

#include "../ddm-test-fixture.h"
#include "../klist-test-fixture.h"
#include "hook-window.h"

static int misuse_walk_nop(struct ddm_device *dev, void *data)
{
	return 0;
}

/*
 * The opening most cases share: driver fx-a (matching @mask) registered,
 * then device fx-dev0 added (and so bound to fx-a when @mask matches).
 */
struct mu_case {
	struct fx_ctx *c;
	struct fx_drv *a;
	struct fx_dev *d;
};

static void mu_open(struct kunit *test, struct mu_case *m, unsigned long mask)
{
	m->c = fx_setup(test);
	m->a = fx_drv_add(test, m->c, "fx-a", mask);
	m->d = fx_dev_add(test, m->c, 0);
}

/* And the closing: both unregistered, fx-a removed from fx-dev0 once. */
static void mu_close(struct kunit *test, struct mu_case *m)
{
	ddm_device_unregister(&m->d->dev);
	ddm_driver_unregister(&m->a->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&m->a->removes), 1);
	fx_teardown(test, m->c, 1);
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
						   misuse_walk_nop), -EINVAL);
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
	struct mu_case m;

	mu_open(test, &m, FX_ID(0));
	shim_expect_report("device fx-dev0 registered twice");
	shim_expect_report("device fx-dev0 registered twice");
	shim_expect_report("device fx-dev0 initialised after it was added");
	KUNIT_EXPECT_EQ(test, ddm_device_register(&m.d->dev), -EBUSY);
	KUNIT_EXPECT_EQ(test, ddm_device_add(&m.d->dev), -EBUSY);
	ddm_device_initialize(&m.d->dev);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 3);
	/* Nothing changed: still on the bus once, bound once. */
	KUNIT_EXPECT_EQ(test, fx_on_bus(m.c), 1);
	KUNIT_EXPECT_EQ(test, fx_bound(m.a), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&m.a->probes), 1);
	KUNIT_EXPECT_EQ(test, kref_read(&m.d->dev.kref), 3U);
	mu_close(test, &m);
}

static void ddm_misuse_device_unregistered_twice(struct kunit *test)
{
	struct mu_case m;

	mu_open(test, &m, FX_ID(0));
	ddm_get_device(&m.d->dev);	/* so that a wrong put could not free it */
	ddm_device_unregister(&m.d->dev);
	shim_expect_report("device fx-dev0 deleted but not registered");
	shim_expect_report("device fx-dev0 deleted but not registered");
	shim_expect_report("device fx-dev0 registered twice");
	ddm_device_unregister(&m.d->dev);	/* reported, no second put */
	ddm_device_del(&m.d->dev);
	KUNIT_EXPECT_EQ(test, ddm_device_add(&m.d->dev), -EBUSY);	/* no re-add */
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 3);
	KUNIT_EXPECT_EQ(test, kref_read(&m.d->dev.kref), 1U);
	KUNIT_EXPECT_EQ(test, atomic_read(&m.a->removes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&m.c->released), 0);
	ddm_put_device(&m.d->dev);
	ddm_driver_unregister(&m.a->drv);
	fx_teardown(test, m.c, 1);
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
	struct mu_case m;
	struct fx_drv *b;

	mu_open(test, &m, FX_ID(0));
	b = fx_drv_new(test, m.c, "fx-b", 0);
	shim_expect_report("device fx-dev0 already bound");
	shim_expect_report("probing device fx-dev0 with unregistered driver fx-b");
	shim_expect_report("binding device fx-dev0 to unregistered driver fx-b");
	ddm_device_lock(&m.d->dev);
	KUNIT_EXPECT_EQ(test, ddm_device_bind_driver(&m.d->dev), -EBUSY);
	ddm_device_unlock(&m.d->dev);
	KUNIT_EXPECT_EQ(test, ddm_driver_probe_device(&b->drv, &m.d->dev),
			-EINVAL);
	ddm_device_release_driver(&m.d->dev);
	ddm_device_lock(&m.d->dev);
	m.d->dev.driver = &b->drv;
	KUNIT_EXPECT_EQ(test, ddm_device_bind_driver(&m.d->dev), -EINVAL);
	m.d->dev.driver = NULL;
	ddm_device_unlock(&m.d->dev);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 3);
	KUNIT_EXPECT_EQ(test, fx_bound(m.a), 0);
	mu_close(test, &m);
}

static void ddm_misuse_bind_without_lock(struct kunit *test)
{
	struct mu_case m;

	mu_open(test, &m, 0);
	shim_expect_report("not held");
	m.d->dev.driver = &m.a->drv;
	KUNIT_EXPECT_EQ(test, ddm_device_bind_driver(&m.d->dev), 0);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
	mu_close(test, &m);
}

static void ddm_misuse_device_without_release(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_dev *d = fx_dev_new(test, c, 0);

	d->dev.release = NULL;
	shim_expect_report("ddm_device_add_claimed(): ddm: device fx-dev0 has no release function");
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
	KUNIT_EXPECT_TRUE(test, ddm_bus_is_registered(&c->bus));
	ddm_device_unregister(&d->dev);
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	ddm_bus_unregister(&c->bus);
	KUNIT_EXPECT_TRUE(test, ddm_bus_is_registered(&c->bus));
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
 * making it ready to probe takes the device mutex (H2), probing takes it
 * again, the `driver` link is allocated and the "bind" event takes the
 * event mutex.  Each one is reported.
 */
#define MISUSE_REGISTER_SLEEPS	7

static void ddm_misuse_register_in_atomic(struct kunit *test)
{
	static DEFINE_SPINLOCK(outer);
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_new(test, c, "fx-a", 0x1);
	struct fx_dev *d = fx_dev_new(test, c, 0);
	int i;

	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	for (i = 0; i < MISUSE_REGISTER_SLEEPS; i++)
		shim_expect_report("sleeping function called from invalid context");
	spin_lock(&outer);
	KUNIT_EXPECT_EQ(test, ddm_device_register(&d->dev), 0);
	spin_unlock(&outer);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(),
			MISUSE_REGISTER_SLEEPS);
	KUNIT_EXPECT_PTR_EQ(test, d->dev.driver, &a->drv);
	ddm_device_unregister(&d->dev);
	ddm_driver_unregister(&a->drv);
	fx_teardown(test, c, 1);
}

/* --- D9: concurrent misuse is claimed, not raced --------------------------- */

/*
 * D9, the double unregister and the double register that raced.
 *
 * ddm_driver_unregister() asked "is the driver's bus node attached?" and
 * then unregistered.  A node stays attached, dead, until the walks
 * standing on it move on, and klist_remove() lets several removers wait
 * for one node (K3); so a second unregister that came while the first
 * waited passed the check too, waited beside it, and both detached and
 * dropped the driver's object: a double put.  ddm_device_register()
 * checked "not added yet" and then initialised the device, so a second
 * register in the window re-initialised the reference count and the
 * device lock of a device the first was adding (and whose lock it held).
 *
 * The rule: registering and unregistering claim the device or driver
 * with one atomic state change before touching anything; whoever loses
 * is reported ("registered twice", "not registered") and touches
 * nothing.
 *
 * tests/defects/ddm/D9-check-then-act-registration.patch puts the checks
 * back: the second unregister waits beside the first and the driver's
 * object is put twice; the racing registers reset a live device.
 */
struct dm_d9_hold {
	struct ddm_bus *bus;
	struct ddm_driver *drv;
	struct completion on_it, release, unregistered;
};

/* A walk of the bus's drivers that stands on @h->drv until released. */
static int dm_d9_stand_on_drv(struct ddm_driver *drv, void *data)
{
	struct dm_d9_hold *h = data;

	if (drv != h->drv)
		return 0;
	complete(&h->on_it);
	/* Bounded: the old code's second unregister waits for this walk. */
	wait_for_completion_timeout(&h->release, msecs_to_jiffies(300));
	return 1;
}

static int dm_d9_walker(void *data)
{
	struct dm_d9_hold *h = data;

	ddm_bus_for_each_drv(h->bus, NULL, h, dm_d9_stand_on_drv);
	fx_park();
	return 0;
}

static int dm_d9_unregisterer(void *data)
{
	struct dm_d9_hold *h = data;

	ddm_driver_unregister(h->drv);
	complete(&h->unregistered);
	fx_park();
	return 0;
}

static void ddm_d9_concurrent_driver_unregister(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_add(test, c, "fx-a", FX_ID(0));
	struct dm_d9_hold *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	struct task_struct *walker, *first;
	struct fx_dev *d = fx_dev_add(test, c, 0);

	KUNIT_ASSERT_NOT_NULL(test, h);
	h->bus = &c->bus;
	h->drv = &a->drv;
	init_completion(&h->on_it);
	init_completion(&h->release);
	init_completion(&h->unregistered);
	walker = kthread_run(dm_d9_walker, h, "dm-d9-walker");
	KUNIT_ASSERT_FALSE(test, IS_ERR(walker));
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&h->on_it,
				msecs_to_jiffies(2000)), 0UL);
	/* The first unregister waits in klist_remove() for the walk. */
	first = kthread_run(dm_d9_unregisterer, h, "dm-d9-first");
	KUNIT_ASSERT_FALSE(test, IS_ERR(first));
	KUNIT_ASSERT_TRUE(test, kfx_task_waiting(first));

	shim_expect_report("driver fx-a is not registered (unregistered twice?)");
	ddm_driver_unregister(&a->drv);	/* at once, touching nothing */
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
	KUNIT_EXPECT_FALSE(test, try_wait_for_completion(&h->unregistered));

	complete(&h->release);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&h->unregistered,
				msecs_to_jiffies(2000)), 0UL);
	kthread_stop(first);
	kthread_stop(walker);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	KUNIT_EXPECT_NULL(test, d->dev.driver);
	KUNIT_EXPECT_NULL(test, a->drv.obj);
	/* Unregistered once, so it registers again and binds again. */
	KUNIT_EXPECT_EQ(test, ddm_driver_register(&a->drv), 0);
	KUNIT_EXPECT_PTR_EQ(test, d->dev.driver, &a->drv);
	ddm_device_unregister(&d->dev);
	ddm_driver_unregister(&a->drv);
	fx_teardown(test, c, 1);
}

/*
 * Two tasks register one device at the same moment, round after round,
 * in forked children (each round expects one report, and a test may
 * expect 64): exactly one register succeeds, the other is reported and
 * changes nothing, and the device unregisters cleanly.
 */
#define DM_D9_CHILDREN	6
#define DM_D9_ROUNDS	50

struct dm_d9_race {
	struct fx_ctx *c;
	struct fx_dev *d;
	atomic_t go, done;
	int ret;
};

static int dm_d9_racer(void *data)
{
	struct dm_d9_race *r = data;
	int round;

	/* Acquire and release: r->d and r->ret are handed over by them. */
	for (round = 1; round <= DM_D9_ROUNDS; round++) {
		while (atomic_read_acquire(&r->go) != round)
			yield();
		r->ret = ddm_device_register(&r->d->dev);
		atomic_set_release(&r->done, round);
	}
	fx_park();
	return 0;
}

static void dm_d9_register_rounds(void *arg)
{
	struct dm_d9_race *r = arg;
	struct task_struct *t;
	int round, mine;

	shim_set_sched_points(0xd9, 100);
	t = kthread_run(dm_d9_racer, r, "dm-d9-racer");
	if (IS_ERR(t))
		return;
	for (round = 1; round <= DM_D9_ROUNDS; round++) {
		r->d = fx_dev_alloc(r->c, 0);
		if (!r->d)
			break;
		shim_expect_report("device fx-dev0 registered twice");
		atomic_set_release(&r->go, round);
		mine = ddm_device_register(&r->d->dev);
		while (atomic_read_acquire(&r->done) != round)
			yield();
		if ((mine == 0) == (r->ret == 0) ||
		    (mine ? mine : r->ret) != -EBUSY)
			shim_report(__FILE__, __LINE__,
				    "D9: racing registers returned %d and %d",
				    mine, r->ret);
		ddm_device_unregister(&r->d->dev);
	}
	shim_set_sched_points(0, 0);
	kthread_stop(t);
}

static void ddm_d9_concurrent_device_register(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct dm_d9_race *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	char title[600];
	int i, failed = 0;

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->c = c;
	for (i = 0; i < DM_D9_CHILDREN && !failed; i++) {
		failed = shim_run_in_child(dm_d9_register_rounds, r, title,
					   sizeof(title));
		KUNIT_EXPECT_EQ_MSG(test, failed, 0, "child %d of %d: %s", i,
				    DM_D9_CHILDREN, title);
	}
	kunit_info(test, "%d children of %d rounds: %s", i, DM_D9_ROUNDS,
		   failed ? "a register reset a live device" : "no failure");
	fx_teardown(test, c, 0);
}

/* --- D10: the driver of a bound device is the one it is bound to ---------- */

/*
 * D10, the driver changed under a bound device.
 *
 * A driver claiming a device without a probe sets dev->driver and calls
 * ddm_device_bind_driver().  On a device bound already that returned
 * -EBUSY and left dev->driver pointing at the new driver: the next
 * unbind called that driver's ->remove for a device it never bound, and
 * the real driver's detach, waiting for the device to leave its list
 * with dev->driver naming it, looped for ever.
 *
 * The rule: the core remembers which driver's list the device is on;
 * a dev->driver that differs while the device is bound is reported and
 * put back, by the bind, the attach and the unbind alike.
 *
 * tests/defects/ddm/D10-driver-changed-under-bound-device.patch drops the
 * check: the wrong ->remove runs.
 */
static void ddm_d10_driver_changed_under_bound_device(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_add(test, c, "fx-a", FX_ID(0));
	struct fx_drv *b = fx_drv_add(test, c, "fx-b", 0);
	struct fx_dev *d = fx_dev_add(test, c, 0);

	KUNIT_ASSERT_PTR_EQ(test, d->dev.driver, &a->drv);
	shim_expect_report("device fx-dev0 is bound to fx-a: driver fx-b not bound");
	shim_expect_report("device fx-dev0 is bound to fx-a: driver fx-b not bound");
	ddm_device_lock(&d->dev);
	d->dev.driver = &b->drv;
	KUNIT_EXPECT_EQ(test, ddm_device_bind_driver(&d->dev), -EBUSY);
	KUNIT_EXPECT_PTR_EQ(test, d->dev.driver, &a->drv);
	/* Written behind the core's back: the unbind puts it right too. */
	d->dev.driver = &b->drv;
	ddm_device_unlock(&d->dev);
	ddm_device_release_driver(&d->dev);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->removes), 0);
	KUNIT_EXPECT_EQ(test, fx_bound(a), 0);
	KUNIT_EXPECT_NULL(test, d->dev.driver);
	/* Nothing is left on a's list for its detach to wait for. */
	ddm_driver_unregister(&a->drv);
	ddm_driver_unregister(&b->drv);
	ddm_device_unregister(&d->dev);
	fx_teardown(test, c, 1);
}

/* --- D11: a driver being registered cannot be unregistered ------------- */

/*
 * D11, an unregister racing the register of the same driver.
 *
 * ddm_driver_register() claimed "registered" as its first step, before
 * the driver's object existed and before it joined the bus.  An
 * unregister in that window won its own claim and ran on a half
 * registered driver: it took the node off the bus list (or killed one
 * not yet linked), put the object and returned; the register then
 * probed devices for a driver nobody could find or unregister again.
 *
 * The rule: the driver is "registering" until its register returns; an
 * unregister meanwhile is reported and touches nothing.  Here the
 * unregister runs from a kthread at the moment the driver has joined the
 * bus list (shim_on_unlock on the list's lock), before it probes.
 *
 * tests/defects/ddm/D11-unregister-during-register.patch claims
 * "registered" at once again: the unregister goes through.
 */
struct mu_d11 {
	struct ddm_driver *drv;
	struct completion go;
	atomic_t finished;
	bool fired, done_in_window;
};

static void mu_d11_hook(void *data)
{
	struct mu_d11 *w = data;

	if (!klist_node_attached(&w->drv->knode_bus)) {
		shim_on_unlock("&k->k_lock", mu_d11_hook, w);	/* not that list */
		return;
	}
	w->fired = true;
	w->done_in_window = hook_window_hold(&w->go, &w->finished, 500);
}

static int mu_d11_unregister(void *data)
{
	struct mu_d11 *w = data;

	if (fx_wait_or_stop(&w->go)) {
		ddm_driver_unregister(w->drv);
		atomic_set_release(&w->finished, 1);
	}
	fx_park();
	return 0;
}

static void ddm_d11_unregister_while_registering(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_dev *d = fx_dev_add(test, c, 0);
	struct fx_drv *a = fx_drv_new(test, c, "fx-a", FX_ID(0));
	struct mu_d11 *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct task_struct *t;
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, w);
	w->drv = &a->drv;
	init_completion(&w->go);
	t = kthread_run(mu_d11_unregister, w, "mu-d11");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	shim_expect_report("driver fx-a unregistered while it registers");
	shim_on_unlock("&k->k_lock", mu_d11_hook, w);
	ret = ddm_driver_register(&a->drv);
	shim_on_unlock(NULL, NULL, NULL);
	kthread_stop(t);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_ASSERT_TRUE(test, w->fired);
	KUNIT_EXPECT_TRUE_MSG(test, w->done_in_window,
			      "the unregister did not return in the window");
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
	/* Nothing touched: registered, on the bus, bound, and it goes once. */
	KUNIT_EXPECT_NOT_NULL(test, a->drv.obj);
	KUNIT_EXPECT_TRUE(test, klist_node_attached(&a->drv.knode_bus));
	KUNIT_EXPECT_PTR_EQ(test, d->dev.driver, &a->drv);
	ddm_device_unregister(&d->dev);
	ddm_driver_unregister(&a->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	fx_teardown(test, c, 1);
}

/* --- D12: a device being added cannot be deleted ----------------------- */

/*
 * D12, an unregister racing the register of the same device.
 *
 * ddm_device_register() marked the device added (H2) before its own
 * attach.  An unregister in that window won its claim, unbound and
 * dropped the only reference: the device was released while its
 * register went on to lock it (found by the generated scenarios of
 * tests/explore/gen/; the device twin of D11).
 *
 * The rule: the device is being added until its register returns; an
 * unregister meanwhile is reported and touches nothing.  Here the
 * unregister runs from a kthread while the register's attach probes the
 * device (fx-a's ->probe, under the device lock), and the probe waits
 * until it has returned or has claimed the device.
 *
 * tests/defects/ddm/D12-device-unregister-during-register.patch marks
 * the device added before the attach again: the unregister claims it,
 * unbinds it once the probe lets go and releases it as its register
 * returns 0.
 */
struct mu_d12 {
	struct ddm_device *dev;
	struct completion go;
	atomic_t finished;
	bool fired, done_in_window;
};

static void mu_d12_probe_hook(struct fx_drv *d, struct ddm_device *dev)
{
	struct mu_d12 *w = to_fx_dev(dev)->ctx->priv;

	if (w->fired)
		return;
	w->fired = true;
	complete(&w->go);
	/* Returned (reported), or claimed and now waiting for our lock. */
	fx_wait_until(atomic_read_acquire(&w->finished) ||
		      atomic_read(&dev->state) == DDM_DEV_DELETED, 5000);
	w->done_in_window = atomic_read_acquire(&w->finished);
}

static int mu_d12_unregister(void *data)
{
	struct mu_d12 *w = data;

	if (fx_wait_or_stop(&w->go)) {
		ddm_device_unregister(w->dev);
		atomic_set_release(&w->finished, 1);
	}
	fx_park();
	return 0;
}

static void ddm_d12_device_unregister_while_registering(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_add(test, c, "fx-a", FX_ID(0));
	struct fx_dev *d = fx_dev_new_kept(test, c, 0);
	struct mu_d12 *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct task_struct *t;
	int ret, released, state;

	KUNIT_ASSERT_NOT_NULL(test, w);
	w->dev = &d->dev;
	init_completion(&w->go);
	c->priv = w;
	a->probe_hook = mu_d12_probe_hook;
	t = kthread_run(mu_d12_unregister, w, "mu-d12");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	shim_expect_report("device fx-dev0 deleted while it is being added");
	ret = ddm_device_register(&d->dev);
	/* The unregister has finished either way before we look. */
	KUNIT_EXPECT_TRUE(test, fx_wait_until(atomic_read_acquire(&w->finished),
					      5000));
	kthread_stop(t);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_ASSERT_TRUE(test, w->fired);
	KUNIT_EXPECT_TRUE_MSG(test, w->done_in_window,
			      "the unregister did not return in the window");
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 1);
	/* Nothing touched: added, bound to fx-a, not released; it goes once. */
	released = atomic_read(&c->released);
	state = atomic_read(&d->dev.state);
	KUNIT_EXPECT_EQ(test, released, 0);
	KUNIT_EXPECT_EQ(test, state, DDM_DEV_ADDED);
	KUNIT_EXPECT_PTR_EQ(test, d->dev.driver, &a->drv);
	if (state == DDM_DEV_ADDED)
		ddm_device_unregister(&d->dev);
	ddm_driver_unregister(&a->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	fx_teardown(test, c, 1);
}

/* --- D13: a bus's registration is claimed ----------------------------- */

/*
 * D13, found by the generated scenarios (gen:ddm:bus_reg+bus_reg@nobus).
 *
 * ddm_bus_register() tested a plain "registered" flag, initialised the
 * lists, then set it: two registers at once both passed the test, the
 * second initialised the lists under the first, and neither was
 * reported.  Two unregisters at once both cleared it, neither reported.
 * The rule, as a driver's (D9, D11): the bus state is claimed with one
 * atomic_cmpxchg(); the loser is reported and touches nothing.
 *
 * Each case explores every interleaving of its two calls (DPOR) on a
 * fresh bus; tests/defects/ddm/D13-bus-registration-not-claimed.patch
 * restores the flag and both fail.
 */
struct dm_d13 {
	struct ddm_bus bus;
	int ret[2];
};

static void *dm_d13_setup(bool registered, const char *report)
{
	struct dm_d13 *b = kzalloc(sizeof(*b), GFP_KERNEL);

	b->bus.name = "d13-bus";
	if (registered)
		ddm_bus_register(&b->bus);
	shim_expect_report(report);
	return b;
}

static void *dm_d13_setup_unregistered(void)
{
	return dm_d13_setup(false, "bus d13-bus registered twice");
}

static void *dm_d13_setup_registered(void)
{
	return dm_d13_setup(true, "bus d13-bus is not registered");
}

static void dm_d13_register0(void *ctx)
{
	struct dm_d13 *b = ctx;

	b->ret[0] = ddm_bus_register(&b->bus);
}

static void dm_d13_register1(void *ctx)
{
	struct dm_d13 *b = ctx;

	b->ret[1] = ddm_bus_register(&b->bus);
}

static void dm_d13_unregister(void *ctx)
{
	struct dm_d13 *b = ctx;

	ddm_bus_unregister(&b->bus);
}

/* One register won and one lost (-EBUSY), reported; or one unregister. */
static void dm_d13_check(void *ctx)
{
	struct dm_d13 *b = ctx;
	bool registers = b->ret[0] || b->ret[1] || ddm_bus_is_registered(&b->bus);

	SHIM_EXPLORE_CHECK(shim_expected_reports_seen() == 1,
			   "%d of two calls reported", shim_expected_reports_seen());
	if (registers) {
		SHIM_EXPLORE_CHECK(b->ret[0] + b->ret[1] == -EBUSY,
				   "registers returned %d and %d", b->ret[0], b->ret[1]);
		SHIM_EXPLORE_CHECK(ddm_bus_is_registered(&b->bus), "bus not registered");
		ddm_bus_unregister(&b->bus);
	}
	kfree(b);
}

static const struct shim_scenario dm_d13_register_twice = {
	.name = "dm_d13_register_twice",
	.setup = dm_d13_setup_unregistered,
	.body = { dm_d13_register0, dm_d13_register1 },
	.check = dm_d13_check,
};

static const struct shim_scenario dm_d13_unregister_twice = {
	.name = "dm_d13_unregister_twice",
	.setup = dm_d13_setup_registered,
	.body = { dm_d13_unregister, dm_d13_unregister },
	.check = dm_d13_check,
};

static void dm_d13_explore(struct kunit *test, const struct shim_scenario *sc)
{
	struct shim_explore_opts o = {
		.strategy = SHIM_EXPLORE_DPOR,
		.max_schedules = 2000,
		.stop_on_failure = true,
	};
	struct shim_explore_result r;

	shim_explore(sc, &o, &r);
	KUNIT_EXPECT_EQ_MSG(test, r.failures, 0UL, "%s (schedule %s)", r.title,
			    r.schedule);
	KUNIT_EXPECT_TRUE_MSG(test, r.covered, "%lu schedules, not every trace",
			      r.schedules);
}

static void ddm_d13_bus_registered_twice_at_once(struct kunit *test)
{
	dm_d13_explore(test, &dm_d13_register_twice);
}

static void ddm_d13_bus_unregistered_twice_at_once(struct kunit *test)
{
	dm_d13_explore(test, &dm_d13_unregister_twice);
}

static struct kunit_case ddm_misuse_test_cases[] = {
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
	KUNIT_CASE(ddm_d9_concurrent_driver_unregister),
	KUNIT_CASE(ddm_d13_bus_registered_twice_at_once),
	KUNIT_CASE(ddm_d13_bus_unregistered_twice_at_once),
	KUNIT_CASE(ddm_d9_concurrent_device_register),
	KUNIT_CASE(ddm_d10_driver_changed_under_bound_device),
	KUNIT_CASE(ddm_d11_unregister_while_registering),
	KUNIT_CASE(ddm_d12_device_unregister_while_registering),
	{}
};

static struct kunit_suite ddm_misuse_test_suite = {
	.name = "ddm_misuse",
	.test_cases = ddm_misuse_test_cases,
};

kunit_test_suites(&ddm_misuse_test_suite);
