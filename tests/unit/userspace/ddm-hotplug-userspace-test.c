// SPDX-License-Identifier: GPL-2.0
/*
 * Hotplug and class tests that need the shim: a udev-like listener that
 * looks a device's number up the moment it hears "add", under seeded
 * schedule points; the same check made deterministically at the moment
 * of emission (shim_on_unlock on the listener's queue lock); allocation
 * failures; an unsubscribe in the middle of a flood; and misuse, which
 * must be reported (WARN) and survived.  Userspace only.
 */
#include <kunit/test.h>
#include <linux/ddm.h>
#include <linux/ddm_class.h>
#include <linux/ddm_object.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <shim/shim.h>
#include <shim/valgrind.h>

#include "../ddm-test-fixture.h"
#include "hook-window.h"

/* hu_: this file's own helpers; the fixture's are fx_ (ddm-test-fixture.h). */

#define HU_MAJOR	242
#define HU_DEV_MAJOR	243
#define HU_BUF		32

/*
 * Device 0 of the fixture's bus, with a number, not registered: the
 * long-lived device that class devices link to.
 */
static struct fx_dev *hu_parent_new(struct kunit *test, struct fx_ctx *c)
{
	struct fx_dev *p = fx_dev_new(test, c, 0);

	p->dev.devt = DDM_MKDEV(HU_DEV_MAJOR, 0);
	return p;
}

/* --- the udev-like listener ---------------------------------------------- */

#define HU_EVENTS	20000	/* 200 under valgrind: DRD took 42 s for 500 */
#define HU_SEED		0x5eed2005ULL
#define HU_PERMILLE	20

/*
 * H1 (the 2005 kobject/hotplug split; the story is at
 * ddm_hotplug_add_and_del_emit_nothing in ddm-hotplug-test.c): before
 * the split the "add" left from inside the add, and udev, reading `dev`
 * at once to make the node, found it missing.  Here the fixture's small
 * udev (struct fx_udev) reads it for class devices (with a `device`
 * link) and binding-core devices, created and destroyed one after
 * another under seeded schedule points, each destroyed only once its
 * "add" was handled: with the split no "add" ever comes before the
 * `dev` attribute.  tests/defects/hotplug/H1-event-emitted-inside-add.patch
 * makes it miss.
 */
static void ddm_hotplug_udev_listener_never_misses(struct kunit *test)
{
	struct fx_udev *u = kunit_kzalloc(test, sizeof(*u), GFP_KERNEL);
	struct fx_ctx *c = fx_setup(test);
	struct fx_dev *parent = hu_parent_new(test, c);
	struct ddm_class_device *cd;
	struct ddm_class *cls;
	struct fx_dev *dev;
	unsigned int events = HU_EVENTS / (shim_on_valgrind() ? 100 : 1);
	unsigned int emitted = 0, i;
	long start;

	KUNIT_ASSERT_NOT_NULL(test, u);
	fx_udev_start(test, u, fx_listener(test));
	shim_set_sched_points(HU_SEED, HU_PERMILLE);
	start = shim_now_ms();

	KUNIT_ASSERT_EQ(test, ddm_device_register(&parent->dev), 0);
	KUNIT_ASSERT_TRUE(test, fx_udev_handled(u));
	cls = ddm_class_create(THIS_MODULE, "hu-class");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cls);
	emitted += 2;

	for (i = 1; emitted < events; i++) {
		if (i % 4 == 0) {
			/* The binding core: its "add" follows the same rule. */
			dev = fx_dev_new(test, c, 1);
			dev->dev.devt = DDM_MKDEV(HU_DEV_MAJOR, i);
			KUNIT_ASSERT_EQ(test, ddm_device_register(&dev->dev),
					0);
			KUNIT_ASSERT_TRUE(test, fx_udev_handled(u));
			ddm_device_unregister(&dev->dev);
		} else {
			cd = ddm_class_device_create(cls,
						     DDM_MKDEV(HU_MAJOR, i),
						     &parent->dev, "hu%u", i);
			KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cd);
			KUNIT_ASSERT_TRUE(test, fx_udev_handled(u));
			KUNIT_ASSERT_EQ(test, ddm_class_device_destroy(cls,
						DDM_MKDEV(HU_MAJOR, i)), 0);
		}
		emitted += 2;
	}
	ddm_class_destroy(cls);
	ddm_device_unregister(&parent->dev);
	emitted += 2;
	shim_set_sched_points(0, 0);

	fx_udev_stop(test, u);
	kunit_info(test,
		   "udev listener: %u events, %u add events, %u misses, %u wrong (seed %#llx, %u permille, %ld ms)",
		   u->events, u->adds, u->misses, u->wrong, HU_SEED,
		   HU_PERMILLE, shim_now_ms() - start);
	KUNIT_EXPECT_EQ(test, u->events, emitted);
	KUNIT_EXPECT_EQ(test, u->adds, emitted / 2 - 1);
	KUNIT_EXPECT_EQ(test, u->wrong, 0U);
	KUNIT_EXPECT_EQ_MSG(test, u->misses, 0U,
			    "an \"add\" came before the `dev` attribute");
	/* The parent, and the binding-core device of every fourth round. */
	fx_teardown(test, c, (int)(emitted / 2 - 2) / 4 + 1);
}

/* --- what a listener finds at the moment of the event ---------------------- */

struct hu_peek {
	struct ddm_listener *l;
	const char *attr;		/* must exist, if set */
	const char *link;		/* must exist, if set */
	bool ran, attr_found, link_found;
	int action;
};

/*
 * Runs right after the emitter released the listener's queue lock, so
 * right after the event was queued and before the emitter goes on: what
 * a listener woken at once would find.
 */
static void hu_peek_hook(void *arg)
{
	struct hu_peek *p = arg;
	struct ddm_object *obj, *target;
	struct ddm_uevent *ev;
	char buf[HU_BUF];

	spin_lock(&p->l->lock);
	ev = list_last_entry(&p->l->events, struct ddm_uevent, entry);
	p->action = ev->action;
	obj = ddm_object_get(ev->obj);
	spin_unlock(&p->l->lock);

	if (p->attr)
		p->attr_found = ddm_object_read_attr(obj, p->attr, buf,
						     sizeof(buf)) >= 0;
	if (p->link) {
		target = ddm_object_get_link(obj, p->link);
		p->link_found = !IS_ERR(target);
		if (p->link_found)
			ddm_object_put(target);
	}
	/* Not the last reference: the queued event holds one. */
	ddm_object_put(obj);
	p->ran = true;
}

static void hu_peek_arm(struct hu_peek *p, struct ddm_listener *l,
			const char *attr, const char *link)
{
	memset(p, 0, sizeof(*p));
	p->l = l;
	p->attr = attr;
	p->link = link;
	shim_on_unlock("&l->lock", hu_peek_hook, p);
}

static void hu_peek_check(struct kunit *test, struct hu_peek *p,
			  enum ddm_uevent_action action)
{
	KUNIT_ASSERT_TRUE(test, p->ran);
	KUNIT_EXPECT_EQ(test, p->action, (int)action);
	if (p->attr)
		KUNIT_EXPECT_TRUE_MSG(test, p->attr_found,
				      "\"%s\" emitted before the `%s` attribute",
				      ddm_uevent_action_name(action), p->attr);
	if (p->link)
		KUNIT_EXPECT_TRUE_MSG(test, p->link_found,
				      "\"%s\" emitted without the `%s` link",
				      ddm_uevent_action_name(action), p->link);
}

/*
 * H1 at the moment of emission (the story is at
 * ddm_hotplug_add_and_del_emit_nothing in ddm-hotplug-test.c): with the
 * "add" sent from inside the add, a listener woken by it at once finds
 * no `dev` attribute and no `device` link.  Here a hook runs right after
 * the emitter queued the event, before the emitter goes on, and looks:
 * they must exist.  tests/defects/hotplug/H1-event-emitted-inside-add.patch
 * makes them missing.
 */
static void ddm_hotplug_add_event_sees_attrs_at_emission(struct kunit *test)
{
	struct ddm_listener *l = fx_listener(test);
	struct fx_ctx *c = fx_setup(test);
	struct fx_dev *parent = hu_parent_new(test, c);
	struct ddm_class *cls;
	struct ddm_class_device *cd;
	struct hu_peek p;

	/* A binding-core device with a number. */
	hu_peek_arm(&p, l, "dev", NULL);
	KUNIT_ASSERT_EQ(test, ddm_device_register(&parent->dev), 0);
	hu_peek_check(test, &p, DDM_UEVENT_ADD);

	cls = ddm_class_create(THIS_MODULE, "hu-class");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cls);
	/* A class device for it: its number and the link to it. */
	hu_peek_arm(&p, l, "dev", "device");
	cd = ddm_class_device_create(cls, DDM_MKDEV(HU_MAJOR, 1), &parent->dev,
				     "hu1");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cd);
	hu_peek_check(test, &p, DDM_UEVENT_ADD);

	KUNIT_EXPECT_EQ(test, ddm_class_device_destroy(cls,
						DDM_MKDEV(HU_MAJOR, 1)), 0);
	ddm_class_destroy(cls);
	ddm_device_unregister(&parent->dev);
	fx_teardown(test, c, 1);
}

/* "bind" comes with the `driver` link; "unbind" while it is still there. */
static void ddm_hotplug_bind_events_see_driver_link(struct kunit *test)
{
	struct ddm_listener *l = fx_listener(test);
	struct fx_ctx *c = fx_setup(test);
	struct fx_dev *parent = hu_parent_new(test, c);
	struct fx_drv *drv = fx_drv_new(test, c, "fx-drv", 0);	/* no match */
	struct hu_peek p;

	KUNIT_ASSERT_EQ(test, ddm_device_register(&parent->dev), 0);
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&drv->drv), 0);
	KUNIT_EXPECT_NULL(test, parent->dev.driver);	/* no match yet */

	WRITE_ONCE(drv->mask, FX_ID(0));
	hu_peek_arm(&p, l, NULL, "driver");
	KUNIT_ASSERT_EQ(test, ddm_driver_probe_device(&drv->drv, &parent->dev),
			0);
	hu_peek_check(test, &p, DDM_UEVENT_BIND);

	hu_peek_arm(&p, l, NULL, "driver");
	ddm_device_release_driver(&parent->dev);
	hu_peek_check(test, &p, DDM_UEVENT_UNBIND);

	ddm_driver_unregister(&drv->drv);
	ddm_device_unregister(&parent->dev);
	fx_teardown(test, c, 1);
}

/* --- allocation failures -------------------------------------------------- */

/* Out of memory for one copy: no listener gets the event. */
static void ddm_hotplug_uevent_enomem_reaches_nobody(struct kunit *test)
{
	struct ddm_listener *l = fx_listener(test);
	struct ddm_listener *other = kunit_kzalloc(test, sizeof(*other),
						   GFP_KERNEL);
	struct ddm_object *obj = ddm_object_create(NULL, "hu-obj");

	KUNIT_ASSERT_NOT_NULL(test, other);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, obj);
	ddm_listener_init(other, "hu-other");
	KUNIT_ASSERT_EQ(test, ddm_listener_subscribe(other), 0);
	shim_fail_next_allocs(1);
	KUNIT_EXPECT_EQ(test, ddm_object_uevent(obj, DDM_UEVENT_ADD), -ENOMEM);
	shim_fail_next_allocs(0);
	KUNIT_EXPECT_EQ(test, l->queued, 0U);
	KUNIT_EXPECT_EQ(test, other->queued, 0U);
	KUNIT_EXPECT_EQ(test, kref_read(&obj->kref), 1U);
	/* The next one reaches both. */
	KUNIT_EXPECT_EQ(test, ddm_object_uevent(obj, DDM_UEVENT_ADD), 0);
	KUNIT_EXPECT_EQ(test, l->queued, 1U);
	KUNIT_EXPECT_EQ(test, other->queued, 1U);
	KUNIT_EXPECT_EQ(test, ddm_listener_unsubscribe(other), 0);
	KUNIT_EXPECT_EQ(test, ddm_listener_flush(other), 1U);
	ddm_object_del(obj);
	ddm_object_put(obj);
}

static void ddm_hotplug_create_enomem_leaves_nothing(struct kunit *test)
{
	struct ddm_listener *l = fx_listener(test);
	struct fx_ctx *c = fx_setup(test);
	struct fx_dev *parent = hu_parent_new(test, c);
	struct ddm_class_device *cd;
	struct ddm_class *cls;

	shim_fail_next_allocs(1);
	KUNIT_EXPECT_PTR_EQ(test, ddm_class_create(THIS_MODULE, "hu-class"),
			    ERR_PTR(-ENOMEM));
	shim_fail_next_allocs(0);
	cls = ddm_class_create(THIS_MODULE, "hu-class");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cls);

	/* The name (formatted first), then the class device itself. */
	shim_fail_next_allocs(1);
	cd = ddm_class_device_create(cls, DDM_MKDEV(HU_MAJOR, 1), NULL, "hu1");
	KUNIT_EXPECT_PTR_EQ(test, cd, ERR_PTR(-ENOMEM));
	shim_fail_next_allocs(0);
	cd = __ddm_class_device_create(cls, DDM_MKDEV(HU_MAJOR, 1), NULL,
				       kstrdup("hu1", GFP_KERNEL));
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cd);
	KUNIT_EXPECT_EQ(test, ddm_class_device_destroy(cls,
						DDM_MKDEV(HU_MAJOR, 1)), 0);
	{
		char *name = kstrdup("hu2", GFP_KERNEL);

		shim_fail_next_allocs(1);
		cd = __ddm_class_device_create(cls, DDM_MKDEV(HU_MAJOR, 2),
					       NULL, name);
		shim_fail_next_allocs(0);
		KUNIT_EXPECT_PTR_EQ(test, cd, ERR_PTR(-ENOMEM));
	}
	KUNIT_EXPECT_NULL(test, ddm_class_find_device(cls,
						DDM_MKDEV(HU_MAJOR, 2)));

	/* A device whose object cannot be had is not added, and can be. */
	shim_fail_next_allocs(1);
	KUNIT_EXPECT_EQ(test, ddm_device_register(&parent->dev), -ENOMEM);
	shim_fail_next_allocs(0);
	KUNIT_EXPECT_EQ(test, ddm_device_add(&parent->dev), 0);
	ddm_class_destroy(cls);
	ddm_device_unregister(&parent->dev);
	fx_teardown(test, c, 1);
	/* Events only for what was made: class, device, each added/removed. */
	KUNIT_EXPECT_EQ(test, ddm_listener_flush(l), 6U);
}

/*
 * Fail each allocation of an operation in turn (the kernel's fail-nth),
 * until it runs with none failed.  A failed run returns -ENOMEM,
 * announces nothing and leaves no memory behind; a run that succeeds
 * although one allocation failed (an event lost, as the kernel's
 * driver_register() ignores a failed uevent) is undone and the sweep
 * goes on.  Returns the number of allocations the operation makes.
 */
struct hu_sweep {
	struct kunit *test;
	struct fx_ctx *c;
	struct fx_dev *parent;
	struct fx_drv *drv;
	struct ddm_class *cls;
	struct fx_dev *dev;
	struct ddm_object *obj;
	struct ddm_listener *other;
};

static int hu_fail_each_alloc(struct hu_sweep *s,
			      int (*op)(struct hu_sweep *s),
			      void (*undo)(struct hu_sweep *s))
{
	struct kunit *test = s->test;
	struct ddm_listener *l = fx_listener(test);
	unsigned int n;

	for (n = 1; n < 100; n++) {
		size_t live = shim_live_allocs();
		bool injected;
		int ret;

		shim_fail_nth(n);
		ret = op(s);
		injected = !shim_fail_nth_left();
		shim_fail_nth(0);
		if (ret) {
			KUNIT_EXPECT_EQ_MSG(test, ret, -ENOMEM, "allocation %u", n);
			KUNIT_EXPECT_EQ_MSG(test, l->queued, 0U, "allocation %u", n);
			if (s->other)
				KUNIT_EXPECT_EQ_MSG(test, s->other->queued, 0U,
						    "allocation %u", n);
			KUNIT_EXPECT_EQ_MSG(test, shim_live_allocs(), live,
					    "allocation %u", n);
		} else {
			undo(s);
			ddm_listener_flush(l);
			if (s->other)
				ddm_listener_flush(s->other);
		}
		KUNIT_EXPECT_TRUE_MSG(test, injected || !ret,
				      "failed with nothing injected at %u", n);
		if (!injected)
			return n - 1;
	}
	KUNIT_FAIL(test, "more than 100 allocations");
	return -1;
}

static int hu_op_device_register(struct hu_sweep *s)
{
	int ret;

	/* Its first allocation: a failed one leaves no device. */
	s->dev = fx_dev_alloc(s->c, 1);
	if (!s->dev)
		return -ENOMEM;
	s->dev->dev.devt = DDM_MKDEV(HU_DEV_MAJOR, 1);
	ret = ddm_device_register(&s->dev->dev);
	if (ret)
		ddm_put_device(&s->dev->dev);
	return ret;
}

static void hu_undo_device_register(struct hu_sweep *s)
{
	ddm_device_unregister(&s->dev->dev);
}

static int hu_op_driver_register(struct hu_sweep *s)
{
	return ddm_driver_register(&s->drv->drv);
}

static void hu_undo_driver_register(struct hu_sweep *s)
{
	ddm_driver_unregister(&s->drv->drv);
}

static int hu_op_class_create(struct hu_sweep *s)
{
	struct ddm_class *cls = ddm_class_create(THIS_MODULE, "hu-sweep");

	if (IS_ERR(cls))
		return PTR_ERR(cls);
	s->cls = cls;
	return 0;
}

static void hu_undo_class_create(struct hu_sweep *s)
{
	ddm_class_destroy(s->cls);
}

static int hu_op_class_device_create(struct hu_sweep *s)
{
	struct ddm_class_device *cd;

	cd = ddm_class_device_create(s->cls, DDM_MKDEV(HU_MAJOR, 7),
				     &s->parent->dev, "hu%d", 7);
	return PTR_ERR_OR_ZERO(cd);
}

static void hu_undo_class_device_create(struct hu_sweep *s)
{
	ddm_class_device_destroy(s->cls, DDM_MKDEV(HU_MAJOR, 7));
}

static int hu_op_uevent(struct hu_sweep *s)
{
	return ddm_object_uevent(s->obj, DDM_UEVENT_ADD);
}

static void hu_undo_nothing(struct hu_sweep *s)
{
}

/* Registering devices, drivers, classes, class devices and events. */
static void ddm_hotplug_each_allocation_failure_unwinds(struct kunit *test)
{
	struct hu_sweep s = { .test = test, .c = fx_setup(test) };
	int devs;

	s.parent = hu_parent_new(test, s.c);
	s.drv = fx_drv_new(test, s.c, "fx-drv", 0);
	/* The device, its object, name and `dev` attribute. */
	devs = hu_fail_each_alloc(&s, hu_op_device_register,
				  hu_undo_device_register);
	KUNIT_EXPECT_GT(test, devs, 3);
	KUNIT_EXPECT_GT(test, hu_fail_each_alloc(&s, hu_op_driver_register,
						 hu_undo_driver_register), 1);
	KUNIT_EXPECT_GT(test, hu_fail_each_alloc(&s, hu_op_class_create,
						 hu_undo_class_create), 1);

	/* A class device with a `device` link to a registered device. */
	KUNIT_ASSERT_EQ(test, ddm_device_register(&s.parent->dev), 0);
	KUNIT_ASSERT_EQ(test, hu_op_class_create(&s), 0);
	ddm_listener_flush(fx_listener(test));
	KUNIT_EXPECT_GT(test, hu_fail_each_alloc(&s, hu_op_class_device_create,
						 hu_undo_class_device_create), 3);

	/* One event, two listeners: a copy each, or none at all. */
	s.other = kunit_kzalloc(test, sizeof(*s.other), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s.other);
	ddm_listener_init(s.other, "hu-other");
	KUNIT_ASSERT_EQ(test, ddm_listener_subscribe(s.other), 0);
	s.obj = s.parent->dev.obj;
	KUNIT_EXPECT_EQ(test, hu_fail_each_alloc(&s, hu_op_uevent,
						 hu_undo_nothing), 2);
	KUNIT_EXPECT_EQ(test, ddm_listener_unsubscribe(s.other), 0);
	s.other = NULL;

	ddm_class_destroy(s.cls);
	ddm_device_unregister(&s.parent->dev);
	/*
	 * Released: a device from each run of the first sweep but its
	 * first (which failed the device's own allocation), and the parent.
	 */
	fx_teardown(test, s.c, devs + 1);
	ddm_listener_flush(fx_listener(test));
	/*
	 * The listener, the fixture's bus and driver and s.other (all
	 * kunit_kzalloc()) are all that is left.
	 */
	KUNIT_EXPECT_EQ(test, shim_live_allocs(), (size_t)4);
}

/* No `driver` link, no bind: the probe is undone and nothing announced. */
static void ddm_hotplug_bind_without_link_is_undone(struct kunit *test)
{
	struct ddm_listener *l = fx_listener(test);
	struct fx_ctx *c = fx_setup(test);
	struct fx_dev *parent = hu_parent_new(test, c);
	struct fx_drv *drv = fx_drv_new(test, c, "fx-drv", 0);	/* no match */
	struct ddm_object *obj;

	KUNIT_ASSERT_EQ(test, ddm_device_register(&parent->dev), 0);
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&drv->drv), 0);
	KUNIT_EXPECT_EQ(test, ddm_listener_flush(l), 2U);
	WRITE_ONCE(drv->mask, FX_ID(0));

	shim_fail_next_allocs(1);
	KUNIT_EXPECT_EQ(test, ddm_driver_probe_device(&drv->drv, &parent->dev),
			-ENOMEM);
	shim_fail_next_allocs(0);
	KUNIT_EXPECT_EQ(test, atomic_read(&drv->probes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&drv->removes), 1);
	KUNIT_EXPECT_NULL(test, parent->dev.driver);
	KUNIT_EXPECT_FALSE(test, ddm_device_is_bound(&parent->dev));
	KUNIT_EXPECT_TRUE(test, shim_log_contains("probe of fx-dev0 failed with error -12"));
	obj = ddm_object_get_link(parent->dev.obj, "driver");
	KUNIT_EXPECT_PTR_EQ(test, obj, ERR_PTR(-ENOENT));
	KUNIT_EXPECT_EQ(test, l->queued, 0U);

	/* Binding without a probe fails the same way. */
	ddm_device_lock(&parent->dev);
	parent->dev.driver = &drv->drv;
	shim_fail_next_allocs(1);
	KUNIT_EXPECT_EQ(test, ddm_device_bind_driver(&parent->dev), -ENOMEM);
	shim_fail_next_allocs(0);
	parent->dev.driver = NULL;
	ddm_device_unlock(&parent->dev);
	KUNIT_EXPECT_EQ(test, l->queued, 0U);

	KUNIT_EXPECT_EQ(test, ddm_device_attach(&parent->dev), 1);
	KUNIT_EXPECT_EQ(test, l->queued, 1U);
	ddm_driver_unregister(&drv->drv);
	ddm_device_unregister(&parent->dev);
	fx_teardown(test, c, 1);
}

/* --- unsubscribing in a flood --------------------------------------------- */

#define HU_AFTER	50	/* events emitted after the unsubscribe */

struct hu_flood {
	struct ddm_object *obj;
	struct completion go;
	atomic_t emitted;
	int errors;
};

static int hu_flood_thread(void *data)
{
	struct hu_flood *f = data;

	wait_for_completion(&f->go);
	while (!kthread_should_stop()) {
		if (ddm_object_uevent(f->obj, DDM_UEVENT_BIND))
			f->errors++;
		atomic_inc(&f->emitted);
	}
	return 0;
}

/*
 * The listener reads some, unsubscribes while events keep coming, then
 * drains: what it got is one unbroken run of sequence numbers (nothing
 * lost while subscribed), and nothing touches it afterwards.
 */
static void ddm_hotplug_unsubscribe_during_flood(struct kunit *test)
{
	struct ddm_listener *l = fx_listener(test);
	struct hu_flood *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	struct ddm_uevent *ev;
	struct task_struct *t;
	unsigned int got = 0, gaps = 0;
	int emitted;
	u64 last = 0;

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->obj = ddm_object_create(NULL, "hu-flood");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, f->obj);
	init_completion(&f->go);
	t = kthread_run(hu_flood_thread, f, "hu-flood");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	shim_set_sched_points(HU_SEED, 20);
	complete(&f->go);

	while (got < 500) {
		ev = ddm_listener_next(l);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ev);
		gaps += got && ev->seqnum != last + 1;
		last = ev->seqnum;
		got++;
		ddm_uevent_free(ev);
	}
	KUNIT_EXPECT_EQ(test, ddm_listener_unsubscribe(l), 0);
	while (!IS_ERR(ev = ddm_listener_next(l))) {
		gaps += ev->seqnum != last + 1;
		last = ev->seqnum;
		got++;
		ddm_uevent_free(ev);
	}
	KUNIT_EXPECT_PTR_EQ(test, ev, ERR_PTR(-ENODEV));
	/*
	 * The emitter goes on after the unsubscribe without touching it:
	 * wait for HU_AFTER more of its events (all emitted after the
	 * unsubscribe returned, but the one it may have been in), then look.
	 */
	emitted = atomic_read(&f->emitted);
	KUNIT_EXPECT_TRUE(test, fx_wait_until(atomic_read(&f->emitted) >=
					      emitted + HU_AFTER, 5000));
	KUNIT_EXPECT_EQ(test, l->queued, 0U);
	kthread_stop(t);
	shim_set_sched_points(0, 0);
	kunit_info(test, "flood: %u events taken of %d emitted, %u gaps", got,
		   atomic_read(&f->emitted), gaps);
	KUNIT_EXPECT_EQ(test, gaps, 0U);
	KUNIT_EXPECT_EQ(test, f->errors, 0);
	KUNIT_EXPECT_GT(test, atomic_read(&f->emitted), (int)got);
	KUNIT_EXPECT_EQ(test, ddm_listener_flush(l), 0U);
	ddm_object_del(f->obj);
	ddm_object_put(f->obj);
}

/* A reader asleep in ddm_listener_next() is woken by the unsubscribe. */
struct hu_sleeper {
	struct ddm_listener *l;
	struct completion started, done;
	long ret;
};

static int hu_sleeper_thread(void *data)
{
	struct hu_sleeper *s = data;

	complete(&s->started);
	s->ret = PTR_ERR(ddm_listener_next(s->l));
	complete(&s->done);
	fx_park();
	return 0;
}

static void ddm_hotplug_unsubscribe_wakes_reader(struct kunit *test)
{
	struct hu_sleeper *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	struct task_struct *t;

	KUNIT_ASSERT_NOT_NULL(test, s);
	s->l = fx_listener(test);
	init_completion(&s->started);
	init_completion(&s->done);
	t = kthread_run(hu_sleeper_thread, s, "hu-sleeper");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&s->started,
				msecs_to_jiffies(1000)) != 0);
	/*
	 * The reader is on its way into ddm_listener_next().  From here to
	 * asleep in its wait_for_completion() it changes no state that can
	 * be seen: give it 20 ms to get there, so that the unsubscribe has
	 * a sleeper to wake rather than a reader that comes too late.
	 */
	msleep(20);
	KUNIT_EXPECT_FALSE(test, completion_done(&s->done));
	KUNIT_EXPECT_EQ(test, ddm_listener_unsubscribe(s->l), 0);
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&s->done,
				msecs_to_jiffies(1000)) != 0);
	kthread_stop(t);
	KUNIT_EXPECT_EQ(test, s->ret, (long)-ENODEV);
	/* The end stays readable for the next reader too. */
	KUNIT_EXPECT_PTR_EQ(test, ddm_listener_next(s->l), ERR_PTR(-ENODEV));
}

/* --- misuse ---------------------------------------------------------------- */

static void hu_static_release(struct ddm_object *obj)
{
}

static void ddm_hotplug_misuse_null_arguments(struct kunit *test)
{
	struct ddm_object *obj = ddm_object_create(NULL, "hu-obj");
	char buf[HU_BUF];
	int i;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, obj);
	for (i = 0; i < 19; i++)
		shim_expect_report("WARNING: at");
	ddm_object_init(NULL, hu_static_release);
	ddm_object_del(NULL);
	ddm_object_unregister(NULL);
	ddm_listener_init(NULL, "x");
	KUNIT_EXPECT_EQ(test, ddm_object_add(NULL, NULL, "x"), -EINVAL);
	KUNIT_EXPECT_EQ(test, ddm_object_uevent(NULL, DDM_UEVENT_ADD), -EINVAL);
	KUNIT_EXPECT_EQ(test, ddm_object_uevent(obj, DDM_UEVENT_NR), -EINVAL);
	KUNIT_EXPECT_EQ(test, ddm_object_add_attr(obj, "a", NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ddm_object_add_attr(obj, NULL, "1"), -EINVAL);
	KUNIT_EXPECT_EQ(test, ddm_object_read_attr(obj, "a", NULL, 4),
			(long)-EINVAL);
	KUNIT_EXPECT_EQ(test, ddm_object_read_attr(obj, "a", buf, 0),
			(long)-EINVAL);
	KUNIT_EXPECT_EQ(test, ddm_object_add_link(obj, "l", NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ddm_object_remove_link(NULL, "l"), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, ddm_object_get_link(obj, NULL),
			    ERR_PTR(-EINVAL));
	KUNIT_EXPECT_EQ(test, ddm_listener_subscribe(NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ddm_listener_unsubscribe(NULL), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, ddm_listener_next(NULL), ERR_PTR(-EINVAL));
	KUNIT_EXPECT_PTR_EQ(test, ddm_listener_poll(NULL), ERR_PTR(-EINVAL));
	KUNIT_EXPECT_EQ(test, ddm_listener_flush(NULL), 0U);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 19);
	/* NULLs are fine where the kernel's put/free take them. */
	ddm_object_put(NULL);
	ddm_uevent_free(NULL);
	ddm_class_device_put(NULL);
	ddm_object_del(obj);
	ddm_object_put(obj);
}

static void ddm_hotplug_misuse_object_lifecycle(struct kunit *test)
{
	static struct ddm_object norelease;
	struct ddm_object *obj = ddm_object_create(NULL, "hu-obj");
	struct ddm_object *target = ddm_object_create(NULL, "hu-target");

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, obj);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, target);
	shim_expect_report("ddm: object hu-obj added twice");
	KUNIT_EXPECT_EQ(test, ddm_object_add(obj, NULL, "hu-obj"), -EBUSY);

	/* Unregister twice: reported, and the object is not put twice. */
	ddm_object_get(obj);
	ddm_object_unregister(obj);
	shim_expect_report("ddm: object hu-obj unregistered but not added");
	ddm_object_unregister(obj);
	shim_expect_report("ddm: object hu-obj deleted but not added");
	ddm_object_del(obj);
	KUNIT_EXPECT_EQ(test, kref_read(&obj->kref), 2U);	/* + the event */
	KUNIT_EXPECT_EQ(test, ddm_listener_flush(fx_listener(test)), 1U);
	ddm_object_put(obj);

	/* The last put of an added object: reported, cleaned up. */
	obj = ddm_object_create(NULL, "hu-leaky");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, obj);
	KUNIT_EXPECT_EQ(test, ddm_object_add_link(obj, "device", target), 0);
	KUNIT_EXPECT_EQ(test, ddm_object_add_attr(obj, "dev", "1:2"), 0);
	shim_expect_report("ddm: object hu-leaky released while added");
	ddm_object_put(obj);
	KUNIT_EXPECT_EQ(test, kref_read(&target->kref), 1U);

	/* Without a release function: reported; its memory is the caller's. */
	shim_expect_report("ddm: object initialised without a release function");
	ddm_object_init(&norelease, NULL);
	KUNIT_EXPECT_EQ(test, ddm_object_add(&norelease, NULL, "hu-static"), 0);
	ddm_object_del(&norelease);
	ddm_object_put(&norelease);

	ddm_object_del(target);
	ddm_object_put(target);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 5);
}

static void ddm_hotplug_misuse_listener(struct kunit *test)
{
	struct ddm_listener *l = fx_listener(test);

	shim_expect_report("ddm: listener fx-listener subscribed twice");
	KUNIT_EXPECT_EQ(test, ddm_listener_subscribe(l), -EBUSY);
	KUNIT_EXPECT_EQ(test, ddm_listener_unsubscribe(l), 0);
	shim_expect_report("ddm: listener fx-listener unsubscribed but not subscribed");
	KUNIT_EXPECT_EQ(test, ddm_listener_unsubscribe(l), -ENOENT);
	/* Once ended, a queue is not reopened. */
	shim_expect_report("ddm: listener fx-listener subscribed twice");
	KUNIT_EXPECT_EQ(test, ddm_listener_subscribe(l), -EBUSY);
	KUNIT_EXPECT_PTR_EQ(test, ddm_listener_poll(l), ERR_PTR(-ENODEV));
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 3);
}

static void ddm_hotplug_misuse_class(struct kunit *test)
{
	struct ddm_listener *l = fx_listener(test);
	struct ddm_class *cls = ddm_class_create(THIS_MODULE, "hu-class");
	struct ddm_class_device *cd[2];
	int i;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cls);
	for (i = 0; i < 2; i++) {
		cd[i] = ddm_class_device_create(cls, DDM_MKDEV(HU_MAJOR, i + 1),
						NULL, "hu%d", i + 1);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cd[i]);
	}
	KUNIT_EXPECT_EQ(test, ddm_listener_flush(l), 3U);

	/* Destroyed with devices left: reported, they are removed too. */
	ddm_class_get(cls);
	shim_expect_report("ddm: class hu-class destroyed with 2 devices left");
	ddm_class_destroy(cls);
	for (i = 0; i < 2; i++) {
		struct ddm_uevent *ev = ddm_listener_poll(l);

		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ev);
		KUNIT_EXPECT_EQ(test, (int)ev->action, (int)DDM_UEVENT_REMOVE);
		KUNIT_EXPECT_EQ(test, ev->devt, DDM_MKDEV(HU_MAJOR, i + 1));
		ddm_uevent_free(ev);
	}
	KUNIT_EXPECT_EQ(test, ddm_listener_flush(l), 1U);
	/* Destroyed twice (by someone holding a reference): reported. */
	shim_expect_report("ddm: class hu-class destroyed twice");
	ddm_class_destroy(cls);
	KUNIT_EXPECT_EQ(test, l->queued, 0U);
	ddm_class_put(cls);
	KUNIT_EXPECT_EQ(test, shim_expected_reports_seen(), 2);
}

static void ddm_hotplug_misuse_unnamed_device_and_driver(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_dev *d = fx_dev_new(test, c, 0);
	struct fx_drv *drv = fx_drv_new(test, c, NULL, 0);

	d->dev.name = NULL;
	shim_expect_report("ddm: device added without a name");
	KUNIT_EXPECT_EQ(test, ddm_device_register(&d->dev), -EINVAL);
	shim_expect_report("ddm: driver registered without a name");
	KUNIT_EXPECT_EQ(test, ddm_driver_register(&drv->drv), -EINVAL);
	KUNIT_EXPECT_EQ(test, fx_listener(test)->queued, 0U);
	ddm_put_device(&d->dev);
	fx_teardown(test, c, 1);
}

/* --- H2: no "bind" before the "add" ------------------------------------------ */

/*
 * H2, the "bind" that overtook its "add".
 *
 * D2 puts a device on the bus list before it is probed, and a driver on
 * it before it probes: so they meet whichever comes first.  But the
 * device joined the list before its "add" was emitted, and was ready to
 * probe at once: a driver registering in that window found it, probed it
 * and emitted "bind" first, for a device no listener had been told
 * exists.  A driver joined the list before its own "add" too: a device
 * added in that window bound to it, and its "bind" came with a `driver`
 * link to an object nobody had heard of.  The hotplug split (H1)
 * promised listeners better.
 *
 * The rule, 6.1.192's ready_to_probe: a device becomes ready to probe
 * only after its "add", under the device lock, and a probe of a device
 * not ready is -EPROBE_DEFER (the add probes it itself right after); a
 * driver emits its "add" before it joins the bus list.
 *
 * The window is forced: right after the first list lock is released in
 * the registration (the join of the bus list), a kthread registers the
 * counterpart, and the registration waits up to 500 ms for it to finish.
 * tests/defects/hotplug/H2-bind-before-add.patch puts the old order back
 * and both cases fail; tests/torture/ddm-event-order counts the
 * out-of-order binds under register/add races.
 */
struct hu_h2 {
	struct ddm_device *dev;		/* waits in the window... */
	struct ddm_driver *drv;		/* ...or this one does */
	struct ddm_device *other_dev;	/* what the kthread registers */
	struct ddm_driver *other_drv;
	struct completion go, done;
	atomic_t fired, finished;
	bool done_in_window;
	int ret;
};

static void hu_h2_hook(void *data)
{
	struct hu_h2 *w = data;
	bool joined = w->dev ? klist_node_attached(&w->dev->knode_bus) :
			       klist_node_attached(&w->drv->knode_bus);

	if (!joined) {		/* another list: wait for the bus list's */
		shim_on_unlock("&k->k_lock", hu_h2_hook, w);
		return;
	}
	atomic_set(&w->fired, 1);
	w->done_in_window = hook_window_hold(&w->go, &w->finished, 500);
}

static int hu_h2_thread(void *data)
{
	struct hu_h2 *w = data;

	if (fx_wait_or_stop(&w->go)) {
		w->ret = w->other_drv ? ddm_driver_register(w->other_drv) :
					ddm_device_register(w->other_dev);
		atomic_set_release(&w->finished, 1);
		complete(&w->done);
	}
	fx_park();
	return 0;
}


/*
 * Register @w's own side in the window the hook opens, the other side
 * from the kthread; then the device is bound, and the listener's queue
 * has @first before the device's "bind".
 */
static void hu_h2_race(struct kunit *test, struct hu_h2 *w,
		       struct fx_dev *d, struct fx_drv *a, bool device_waits)
{
	struct ddm_listener *l = fx_listener(test);
	struct ddm_uevent *evs[16];
	struct ddm_object *first;
	struct task_struct *t;
	int n = 0, ret, add, bind;

	init_completion(&w->go);
	init_completion(&w->done);
	if (device_waits) {
		w->dev = &d->dev;
		w->other_drv = &a->drv;
	} else {
		w->drv = &a->drv;
		w->other_dev = &d->dev;
	}
	t = kthread_run(hu_h2_thread, w, "hu-h2");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	shim_on_unlock("&k->k_lock", hu_h2_hook, w);
	ret = device_waits ? ddm_device_register(&d->dev) :
			     ddm_driver_register(&a->drv);
	shim_on_unlock(NULL, NULL, NULL);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&w->done,
				msecs_to_jiffies(2000)), 0UL);
	kthread_stop(t);
	KUNIT_EXPECT_EQ(test, w->ret, 0);
	KUNIT_ASSERT_EQ(test, atomic_read(&w->fired), 1);
	KUNIT_EXPECT_TRUE_MSG(test, w->done_in_window,
			      "the other registration did not finish in the window");
	/* D2 still holds: they met, one probe. */
	KUNIT_EXPECT_PTR_EQ(test, d->dev.driver, &a->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);

	while (n < (int)ARRAY_SIZE(evs) && !IS_ERR(evs[n] = ddm_listener_poll(l)))
		n++;
	first = device_waits ? d->dev.obj : a->drv.obj;
	add = fx_event_at(evs, n, first, DDM_UEVENT_ADD);
	bind = fx_event_at(evs, n, d->dev.obj, DDM_UEVENT_BIND);
	KUNIT_EXPECT_GE(test, add, 0);
	KUNIT_EXPECT_GE(test, bind, 0);
	KUNIT_EXPECT_LT_MSG(test, add, bind,
			    "\"bind\" of %s came before the \"add\" of %s",
			    d->dev.name, device_waits ? d->dev.name : a->drv.name);
	while (n)
		ddm_uevent_free(evs[--n]);
}

static void ddm_h2_device_bind_never_before_its_add(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_new(test, c, "fx-a", FX_ID(0));
	struct fx_dev *d = fx_dev_new(test, c, 0);
	struct hu_h2 *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, w);
	hu_h2_race(test, w, d, a, true);
	ddm_device_unregister(&d->dev);
	ddm_driver_unregister(&a->drv);
	fx_teardown(test, c, 1);
}

static void ddm_h2_driver_add_before_any_bind_to_it(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_new(test, c, "fx-a", FX_ID(0));
	struct fx_dev *d = fx_dev_new(test, c, 0);
	struct hu_h2 *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, w);
	hu_h2_race(test, w, d, a, false);
	ddm_device_unregister(&d->dev);
	ddm_driver_unregister(&a->drv);
	fx_teardown(test, c, 1);
}

static struct kunit_case ddm_hotplug_userspace_test_cases[] = {
	KUNIT_CASE(ddm_hotplug_udev_listener_never_misses),
	KUNIT_CASE(ddm_hotplug_add_event_sees_attrs_at_emission),
	KUNIT_CASE(ddm_hotplug_bind_events_see_driver_link),
	KUNIT_CASE(ddm_h2_device_bind_never_before_its_add),
	KUNIT_CASE(ddm_h2_driver_add_before_any_bind_to_it),
	KUNIT_CASE(ddm_hotplug_uevent_enomem_reaches_nobody),
	KUNIT_CASE(ddm_hotplug_create_enomem_leaves_nothing),
	KUNIT_CASE(ddm_hotplug_each_allocation_failure_unwinds),
	KUNIT_CASE(ddm_hotplug_bind_without_link_is_undone),
	KUNIT_CASE(ddm_hotplug_unsubscribe_during_flood),
	KUNIT_CASE(ddm_hotplug_unsubscribe_wakes_reader),
	KUNIT_CASE(ddm_hotplug_misuse_null_arguments),
	KUNIT_CASE(ddm_hotplug_misuse_object_lifecycle),
	KUNIT_CASE(ddm_hotplug_misuse_listener),
	KUNIT_CASE(ddm_hotplug_misuse_class),
	KUNIT_CASE(ddm_hotplug_misuse_unnamed_device_and_driver),
	{}
};

static struct kunit_suite ddm_hotplug_userspace_test_suite = {
	.name = "ddm_hotplug_userspace",
	.init = fx_listener_init,
	.exit = fx_listener_exit,
	.test_cases = ddm_hotplug_userspace_test_cases,
};

kunit_test_suites(&ddm_hotplug_userspace_test_suite);
