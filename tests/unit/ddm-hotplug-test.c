// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for ddm objects and their hotplug events (the 2005
 * kobject/hotplug split): adding and deleting emit nothing, the owner
 * emits "add" once the attributes exist, register/unregister emit by
 * themselves; listener queues lose nothing, also across an unsubscribe;
 * the binding core announces devices, bindings and unbindings in order.
 * Shared with KUnit in the kernel: kernel APIs only, nothing may WARN.
 */
#include <kunit/test.h>
#include <linux/ddm.h>
#include <linux/ddm_object.h>
#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ddm-test-fixture.h"

/* hp_: this file's own helpers; the fixture's are fx_ (ddm-test-fixture.h). */

#define HP_MAJOR	240
#define HP_BUF		32

static atomic_t hp_released;

struct hp_item {
	struct ddm_object obj;
};

static void hp_item_release(struct ddm_object *obj)
{
	atomic_inc(&hp_released);
	kfree(container_of(obj, struct hp_item, obj));
}

static struct hp_item *hp_item_new(struct kunit *test)
{
	struct hp_item *it = kzalloc(sizeof(*it), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, it);
	ddm_object_init(&it->obj, hp_item_release);
	return it;
}

/* Every case starts with one subscribed listener (the fixture's). */
static int hp_init(struct kunit *test)
{
	atomic_set(&hp_released, 0);
	return fx_listener_init(test);
}

/* --- objects and events -------------------------------------------------- */

/*
 * H1, the "add" that came before the attributes (the 2005
 * kobject/hotplug split).
 *
 * Before the split, kobject_add() sent the object's "add" hotplug event
 * by itself, from inside the add, and only then did its caller create
 * the attributes a listener needs: a class device's `dev` (its device
 * number) and its `device` link.  So:
 *
 *  1. the creator adds the object: "add" is queued at once;
 *  2. udev, woken by it, reads `dev` to make the device node: not there;
 *  3. the creator adds `dev`, too late; udev had to poll for it.
 *
 * And every object added only for the kernel's own use was announced
 * too.  The rule: adding and deleting an object emit nothing; its owner
 * emits "add" once the attributes exist (the register and unregister
 * wrappers still emit by themselves).
 *
 * tests/defects/hotplug/H1-event-emitted-inside-add.patch moves the
 * event back inside ddm_object_add().  This test: adding an object,
 * giving it an attribute and deleting it announce nothing.  In
 * ddm_hotplug_userspace, ddm_hotplug_udev_listener_never_misses and
 * ddm_hotplug_add_event_sees_attrs_at_emission look for the attribute
 * from a listener thread and at the moment of emission.
 */
static void ddm_hotplug_add_and_del_emit_nothing(struct kunit *test)
{
	struct ddm_listener *l = fx_listener(test);
	struct ddm_object *obj;

	obj = ddm_object_create(NULL, "hp-obj");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, obj);
	KUNIT_EXPECT_TRUE(test, ddm_object_is_added(obj));
	KUNIT_EXPECT_STREQ(test, ddm_object_name(obj), "hp-obj");
	KUNIT_EXPECT_EQ(test, ddm_object_add_attr(obj, "size", "42"), 0);
	ddm_object_del(obj);
	KUNIT_EXPECT_FALSE(test, ddm_object_is_added(obj));
	fx_expect_no_event(test, l);
	KUNIT_EXPECT_EQ(test, l->queued, 0U);
	ddm_object_put(obj);
}

/* The owner announces the object once its attribute and link exist. */
static void ddm_hotplug_add_event_after_attrs(struct kunit *test)
{
	struct ddm_listener *l = fx_listener(test);
	struct ddm_object *obj, *target, *link;
	struct ddm_uevent *ev;
	char buf[HP_BUF];
	u64 seq;

	target = ddm_object_create(NULL, "hp-target");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, target);
	obj = ddm_object_alloc();
	KUNIT_ASSERT_NOT_NULL(test, obj);
	obj->devt = DDM_MKDEV(HP_MAJOR, 1);
	KUNIT_ASSERT_EQ(test, ddm_object_add(obj, NULL, "hp-obj"), 0);
	KUNIT_ASSERT_EQ(test, ddm_object_add_devt_attr(obj, obj->devt), 0);
	KUNIT_ASSERT_EQ(test, ddm_object_add_link(obj, "device", target), 0);
	fx_expect_no_event(test, l);
	KUNIT_ASSERT_EQ(test, ddm_object_uevent(obj, DDM_UEVENT_ADD), 0);

	ev = ddm_listener_poll(l);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ev);
	KUNIT_EXPECT_EQ(test, (int)ev->action, (int)DDM_UEVENT_ADD);
	KUNIT_EXPECT_PTR_EQ(test, ev->obj, obj);
	KUNIT_EXPECT_EQ(test, ev->devt, DDM_MKDEV(HP_MAJOR, 1));
	KUNIT_EXPECT_EQ(test, ddm_object_read_attr(ev->obj, "dev", buf,
						   sizeof(buf)), 5L);
	KUNIT_EXPECT_STREQ(test, buf, "240:1");
	link = ddm_object_get_link(ev->obj, "device");
	KUNIT_EXPECT_PTR_EQ(test, link, target);
	if (!IS_ERR(link))
		ddm_object_put(link);
	seq = ev->seqnum;
	ddm_uevent_free(ev);

	/* "remove" goes out first; then the object and all it shows go. */
	KUNIT_EXPECT_EQ(test, ddm_object_uevent(obj, DDM_UEVENT_REMOVE), 0);
	ddm_object_del(obj);
	ev = ddm_listener_poll(l);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ev);
	KUNIT_EXPECT_EQ(test, (int)ev->action, (int)DDM_UEVENT_REMOVE);
	KUNIT_EXPECT_GT(test, ev->seqnum, seq);
	KUNIT_EXPECT_EQ(test, ev->devt, DDM_MKDEV(HP_MAJOR, 1));
	KUNIT_EXPECT_STREQ(test, ddm_object_name(ev->obj), "hp-obj");
	KUNIT_EXPECT_EQ(test, ddm_object_read_attr(ev->obj, "dev", buf,
						   sizeof(buf)), (long)-ENOENT);
	KUNIT_EXPECT_PTR_EQ(test, ddm_object_get_link(ev->obj, "device"),
			    ERR_PTR(-ENOENT));
	ddm_uevent_free(ev);
	/* The link's reference on the target went with the object. */
	KUNIT_EXPECT_EQ(test, kref_read(&target->kref), 1U);
	ddm_object_put(obj);
	ddm_object_del(target);
	ddm_object_put(target);
}

/* kobject_register()/kobject_unregister() keep emitting by themselves. */
static void ddm_hotplug_register_wrappers_emit(struct kunit *test)
{
	struct ddm_listener *l = fx_listener(test);
	struct ddm_object *parent;
	struct hp_item *it;
	struct ddm_uevent *ev;

	parent = ddm_object_create(NULL, "hp-parent");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, parent);
	it = hp_item_new(test);
	KUNIT_ASSERT_EQ(test, ddm_object_register(&it->obj, parent, "hp-child"),
			0);
	KUNIT_EXPECT_PTR_EQ(test, it->obj.parent, parent);
	KUNIT_EXPECT_EQ(test, kref_read(&parent->kref), 2U);
	fx_expect_event(test, l, DDM_UEVENT_ADD, &it->obj);

	ddm_object_unregister(&it->obj);
	ev = ddm_listener_poll(l);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ev);
	KUNIT_EXPECT_EQ(test, (int)ev->action, (int)DDM_UEVENT_REMOVE);
	/* The queued event keeps the object (and so its parent) alive. */
	KUNIT_EXPECT_EQ(test, atomic_read(&hp_released), 0);
	KUNIT_EXPECT_EQ(test, kref_read(&parent->kref), 2U);
	ddm_uevent_free(ev);
	KUNIT_EXPECT_EQ(test, atomic_read(&hp_released), 1);
	KUNIT_EXPECT_EQ(test, kref_read(&parent->kref), 1U);
	ddm_object_del(parent);
	ddm_object_put(parent);
}

/* Events for objects that are not (or no longer) there are refused. */
static void ddm_hotplug_event_for_gone_object_fails(struct kunit *test)
{
	struct ddm_listener *l = fx_listener(test);
	struct ddm_object *obj, *child;
	struct hp_item *it;

	it = hp_item_new(test);
	KUNIT_EXPECT_EQ(test, ddm_object_uevent(&it->obj, DDM_UEVENT_ADD),
			-ENOENT);
	ddm_object_put(&it->obj);
	KUNIT_EXPECT_EQ(test, atomic_read(&hp_released), 1);

	obj = ddm_object_create(NULL, "hp-gone");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, obj);
	ddm_object_del(obj);
	KUNIT_EXPECT_EQ(test, ddm_object_uevent(obj, DDM_UEVENT_ADD), -ENOENT);
	KUNIT_EXPECT_EQ(test, ddm_object_uevent(obj, DDM_UEVENT_REMOVE),
			-ENOENT);
	/* Nor can anything be added under it, or to it. */
	child = ddm_object_create(obj, "hp-child");
	KUNIT_EXPECT_PTR_EQ(test, child, ERR_PTR(-ENOENT));
	KUNIT_EXPECT_EQ(test, ddm_object_add_attr(obj, "dev", "1:1"), -ENOENT);
	fx_expect_no_event(test, l);
	KUNIT_EXPECT_EQ(test, kref_read(&obj->kref), 1U);
	ddm_object_put(obj);
	KUNIT_EXPECT_NULL(test, ddm_uevent_action_name(DDM_UEVENT_NR));
}

/* Attributes and links: one namespace, copies out, references held. */
static void ddm_hotplug_attrs_and_links(struct kunit *test)
{
	struct ddm_object *obj, *target, *gone, *got;
	char buf[HP_BUF], small[4];

	obj = ddm_object_create(NULL, "hp-obj");
	target = ddm_object_create(NULL, "hp-target");
	gone = ddm_object_create(NULL, "hp-gone");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, obj);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, target);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, gone);

	KUNIT_EXPECT_EQ(test, ddm_object_add_attr(obj, "serial", "abcdef"), 0);
	KUNIT_EXPECT_EQ(test, ddm_object_add_attr(obj, "serial", "x"), -EEXIST);
	KUNIT_EXPECT_EQ(test, ddm_object_add_link(obj, "serial", target),
			-EEXIST);
	KUNIT_EXPECT_EQ(test, ddm_object_read_attr(obj, "serial", buf,
						   sizeof(buf)), 6L);
	KUNIT_EXPECT_STREQ(test, buf, "abcdef");
	KUNIT_EXPECT_EQ(test, ddm_object_read_attr(obj, "serial", small,
						   sizeof(small)), (long)-E2BIG);
	KUNIT_EXPECT_STREQ(test, small, "abc");
	KUNIT_EXPECT_EQ(test, ddm_object_read_attr(obj, "none", buf,
						   sizeof(buf)), (long)-ENOENT);

	KUNIT_EXPECT_EQ(test, ddm_object_add_link(obj, "device", target), 0);
	KUNIT_EXPECT_EQ(test, kref_read(&target->kref), 2U);
	got = ddm_object_get_link(obj, "device");
	KUNIT_EXPECT_PTR_EQ(test, got, target);
	KUNIT_EXPECT_EQ(test, kref_read(&target->kref), 3U);
	if (!IS_ERR(got))
		ddm_object_put(got);
	/* A link is not an attribute, nor an attribute a link. */
	KUNIT_EXPECT_EQ(test, ddm_object_read_attr(obj, "device", buf,
						   sizeof(buf)), (long)-ENOENT);
	KUNIT_EXPECT_PTR_EQ(test, ddm_object_get_link(obj, "serial"),
			    ERR_PTR(-ENOENT));
	KUNIT_EXPECT_EQ(test, ddm_object_remove_link(obj, "serial"), -ENOENT);
	KUNIT_EXPECT_EQ(test, ddm_object_remove_attr(obj, "device"), -ENOENT);

	/* No links to an object that has gone. */
	ddm_object_del(gone);
	KUNIT_EXPECT_EQ(test, ddm_object_add_link(obj, "gone", gone), -ENOENT);
	KUNIT_EXPECT_EQ(test, kref_read(&gone->kref), 1U);
	ddm_object_put(gone);

	KUNIT_EXPECT_EQ(test, ddm_object_remove_attr(obj, "serial"), 0);
	KUNIT_EXPECT_EQ(test, ddm_object_remove_attr(obj, "serial"), -ENOENT);
	KUNIT_EXPECT_EQ(test, ddm_object_remove_link(obj, "device"), 0);
	KUNIT_EXPECT_EQ(test, kref_read(&target->kref), 1U);

	/* Deleting drops what is left, links' references included. */
	KUNIT_EXPECT_EQ(test, ddm_object_add_link(obj, "device", target), 0);
	ddm_object_del(obj);
	KUNIT_EXPECT_EQ(test, kref_read(&target->kref), 1U);
	KUNIT_EXPECT_EQ(test, ddm_object_add_attr(obj, "late", "1"), -ENOENT);
	KUNIT_EXPECT_EQ(test, ddm_object_add_link(obj, "late", target),
			-ENOENT);
	ddm_object_put(obj);
	ddm_object_del(target);
	ddm_object_put(target);
}

/* --- listeners ----------------------------------------------------------- */

#define HP_FLOOD	64

/* A listener that takes nothing for a while still gets everything. */
static void ddm_hotplug_slow_listener_loses_nothing(struct kunit *test)
{
	struct ddm_listener *fast = fx_listener(test);
	struct ddm_listener *slow = kunit_kzalloc(test, sizeof(*slow),
						  GFP_KERNEL);
	u64 seqs[HP_FLOOD];
	struct ddm_object *objs[2];
	struct ddm_uevent *ev;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, slow);
	ddm_listener_init(slow, "hp-slow");
	KUNIT_ASSERT_EQ(test, ddm_listener_subscribe(slow), 0);
	objs[0] = ddm_object_create(NULL, "hp-a");
	objs[1] = ddm_object_create(NULL, "hp-b");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, objs[0]);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, objs[1]);

	for (i = 0; i < HP_FLOOD; i++) {
		KUNIT_ASSERT_EQ(test, ddm_object_uevent(objs[i & 1],
				i & 2 ? DDM_UEVENT_BIND : DDM_UEVENT_UNBIND), 0);
		ev = ddm_listener_poll(fast);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ev);
		seqs[i] = ev->seqnum;
		if (i)
			KUNIT_EXPECT_EQ(test, seqs[i], seqs[i - 1] + 1);
		ddm_uevent_free(ev);
	}
	KUNIT_EXPECT_EQ(test, slow->queued, (unsigned int)HP_FLOOD);
	for (i = 0; i < HP_FLOOD; i++) {
		ev = ddm_listener_poll(slow);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ev);
		KUNIT_EXPECT_EQ(test, ev->seqnum, seqs[i]);
		KUNIT_EXPECT_PTR_EQ(test, ev->obj, objs[i & 1]);
		KUNIT_EXPECT_EQ(test, (int)ev->action,
				i & 2 ? (int)DDM_UEVENT_BIND :
					(int)DDM_UEVENT_UNBIND);
		ddm_uevent_free(ev);
	}
	fx_expect_no_event(test, slow);
	KUNIT_EXPECT_EQ(test, ddm_listener_unsubscribe(slow), 0);
	KUNIT_EXPECT_EQ(test, ddm_listener_flush(slow), 0U);
	for (i = 0; i < 2; i++) {
		ddm_object_del(objs[i]);
		ddm_object_put(objs[i]);
	}
}

/* Unsubscribing stops new events; queued ones can still be taken. */
static void ddm_hotplug_unsubscribe_keeps_queued_events(struct kunit *test)
{
	struct ddm_listener *l = fx_listener(test);
	struct hp_item *it = hp_item_new(test);
	struct ddm_object *other;
	int i;

	KUNIT_ASSERT_EQ(test, ddm_object_register(&it->obj, NULL, "hp-item"),
			0);
	other = ddm_object_create(NULL, "hp-other");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, other);
	KUNIT_EXPECT_EQ(test, ddm_object_uevent(other, DDM_UEVENT_ADD), 0);
	ddm_object_unregister(&it->obj);
	KUNIT_EXPECT_EQ(test, l->queued, 3U);

	KUNIT_EXPECT_EQ(test, ddm_listener_unsubscribe(l), 0);
	KUNIT_EXPECT_EQ(test, ddm_object_uevent(other, DDM_UEVENT_BIND), 0);
	KUNIT_EXPECT_EQ(test, l->queued, 3U);
	/* Unregistered, but the queued events still hold it. */
	KUNIT_EXPECT_EQ(test, atomic_read(&hp_released), 0);

	fx_expect_event(test, l, DDM_UEVENT_ADD, &it->obj);
	fx_expect_event(test, l, DDM_UEVENT_ADD, other);
	fx_expect_event(test, l, DDM_UEVENT_REMOVE, &it->obj);
	KUNIT_EXPECT_EQ(test, atomic_read(&hp_released), 1);
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_PTR_EQ(test, ddm_listener_poll(l),
				    ERR_PTR(-ENODEV));
		KUNIT_EXPECT_PTR_EQ(test, ddm_listener_next(l),
				    ERR_PTR(-ENODEV));
	}
	ddm_object_del(other);
	ddm_object_put(other);
}

/* Flushing after an unsubscribe drops every queued event's reference. */
static void ddm_hotplug_flush_drops_references(struct kunit *test)
{
	struct ddm_listener *l = fx_listener(test);
	struct hp_item *items[3];
	int i;

	for (i = 0; i < 3; i++) {
		items[i] = hp_item_new(test);
		KUNIT_ASSERT_EQ(test, ddm_object_register(&items[i]->obj, NULL,
							  "hp-item"), 0);
		ddm_object_unregister(&items[i]->obj);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&hp_released), 0);
	KUNIT_EXPECT_EQ(test, ddm_listener_unsubscribe(l), 0);
	KUNIT_EXPECT_EQ(test, ddm_listener_flush(l), 6U);
	KUNIT_EXPECT_EQ(test, atomic_read(&hp_released), 3);
	KUNIT_EXPECT_EQ(test, l->queued, 0U);
	KUNIT_EXPECT_PTR_EQ(test, ddm_listener_poll(l), ERR_PTR(-ENODEV));
	KUNIT_EXPECT_EQ(test, ddm_listener_flush(l), 0U);
}

/* --- the binding core ------------------------------------------------ */

/* Whether a device had its `driver` link, seen in ->probe and ->remove. */
struct hp_links {
	bool in_probe, in_remove;
};

static bool hp_has_driver_link(struct ddm_device *dev)
{
	struct ddm_object *link = ddm_object_get_link(dev->obj, "driver");

	if (IS_ERR(link))
		return false;
	ddm_object_put(link);
	return true;
}

static void hp_probe_hook(struct fx_drv *d, struct ddm_device *dev)
{
	struct hp_links *seen = d->priv;

	seen->in_probe = hp_has_driver_link(dev);
}

static void hp_remove_hook(struct fx_drv *d, struct ddm_device *dev)
{
	struct hp_links *seen = d->priv;

	seen->in_remove = hp_has_driver_link(dev);
}

/* A driver, not registered, that matches device 0 and notes its links. */
static struct fx_drv *hp_drv_new(struct kunit *test, struct fx_ctx *c)
{
	struct fx_drv *drv = fx_drv_new(test, c, "fx-drv", FX_ID(0));
	struct hp_links *seen = kunit_kzalloc(test, sizeof(*seen), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, seen);
	drv->probe_hook = hp_probe_hook;
	drv->remove_hook = hp_remove_hook;
	drv->priv = seen;
	return drv;
}

/* Device 0, not registered, with the device number @devt (or none). */
static struct ddm_device *hp_dev_new(struct kunit *test, struct fx_ctx *c,
				     ddm_devt_t devt)
{
	struct fx_dev *d = fx_dev_new(test, c, 0);

	d->dev.devt = devt;
	return &d->dev;
}

/*
 * A device's events, in order: "add" with its `dev` attribute present,
 * "bind" with its `driver` link present, "unbind" while the link is
 * still there, "remove" once the attribute has gone.
 */
static void ddm_hotplug_device_events_in_order(struct kunit *test)
{
	struct ddm_listener *l = fx_listener(test);
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *drv = hp_drv_new(test, c);
	struct hp_links *seen = drv->priv;
	struct ddm_device *dev = hp_dev_new(test, c, DDM_MKDEV(HP_MAJOR, 7));
	struct ddm_object *dobj, *drvobj, *link;
	struct ddm_uevent *ev;
	char buf[HP_BUF];

	KUNIT_ASSERT_EQ(test, ddm_device_register(dev), 0);
	dobj = ddm_object_get(dev->obj);
	ev = ddm_listener_poll(l);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ev);
	KUNIT_EXPECT_EQ(test, (int)ev->action, (int)DDM_UEVENT_ADD);
	KUNIT_EXPECT_PTR_EQ(test, ev->obj, dobj);
	KUNIT_EXPECT_EQ(test, ev->devt, DDM_MKDEV(HP_MAJOR, 7));
	KUNIT_EXPECT_STREQ(test, ddm_object_name(ev->obj), "fx-dev0");
	KUNIT_EXPECT_EQ(test, ddm_object_read_attr(ev->obj, "dev", buf,
						   sizeof(buf)), 5L);
	KUNIT_EXPECT_STREQ(test, buf, "240:7");
	ddm_uevent_free(ev);
	fx_expect_no_event(test, l);

	KUNIT_ASSERT_EQ(test, ddm_driver_register(&drv->drv), 0);
	drvobj = ddm_object_get(drv->drv.obj);
	fx_expect_event(test, l, DDM_UEVENT_ADD, drvobj);
	fx_expect_event(test, l, DDM_UEVENT_BIND, dobj);
	KUNIT_EXPECT_PTR_EQ(test, dev->driver, &drv->drv);
	/* Made after a successful probe, before the event. */
	KUNIT_EXPECT_FALSE(test, seen->in_probe);
	link = ddm_object_get_link(dobj, "driver");
	KUNIT_EXPECT_PTR_EQ(test, link, drvobj);
	if (!IS_ERR(link))
		ddm_object_put(link);

	ddm_device_release_driver(dev);
	fx_expect_event(test, l, DDM_UEVENT_UNBIND, dobj);
	KUNIT_EXPECT_TRUE(test, seen->in_remove);
	KUNIT_EXPECT_FALSE(test, hp_has_driver_link(dev));

	KUNIT_EXPECT_EQ(test, ddm_device_attach(dev), 1);
	fx_expect_event(test, l, DDM_UEVENT_BIND, dobj);
	ddm_device_unregister(dev);
	fx_expect_event(test, l, DDM_UEVENT_UNBIND, dobj);
	fx_expect_event(test, l, DDM_UEVENT_REMOVE, dobj);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->released), 1);
	/* The device is gone; its object stays while we hold it. */
	KUNIT_EXPECT_FALSE(test, ddm_object_is_added(dobj));
	KUNIT_EXPECT_EQ(test, ddm_object_read_attr(dobj, "dev", buf,
						   sizeof(buf)), (long)-ENOENT);
	ddm_object_put(dobj);

	ddm_driver_unregister(&drv->drv);
	fx_expect_event(test, l, DDM_UEVENT_REMOVE, drvobj);
	KUNIT_EXPECT_NULL(test, drv->drv.obj);
	KUNIT_EXPECT_FALSE(test, ddm_object_is_added(drvobj));
	ddm_object_put(drvobj);
	fx_expect_no_event(test, l);
	fx_teardown(test, c, 1);
}

/* A driver unregistering announces its devices' unbinds, then itself. */
static void ddm_hotplug_driver_unregister_events(struct kunit *test)
{
	struct ddm_listener *l = fx_listener(test);
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *drv = hp_drv_new(test, c);
	struct ddm_device *dev = hp_dev_new(test, c, 0);
	struct ddm_object *drvobj, *dobj;
	char buf[HP_BUF];

	KUNIT_ASSERT_EQ(test, ddm_driver_register(&drv->drv), 0);
	drvobj = ddm_object_get(drv->drv.obj);
	fx_expect_event(test, l, DDM_UEVENT_ADD, drvobj);
	KUNIT_ASSERT_EQ(test, ddm_device_register(dev), 0);
	dobj = dev->obj;
	fx_expect_event(test, l, DDM_UEVENT_ADD, dobj);
	fx_expect_event(test, l, DDM_UEVENT_BIND, dobj);
	/* No device number, no `dev` attribute. */
	KUNIT_EXPECT_EQ(test, ddm_object_read_attr(dev->obj, "dev", buf,
						   sizeof(buf)), (long)-ENOENT);

	ddm_driver_unregister(&drv->drv);
	fx_expect_event(test, l, DDM_UEVENT_UNBIND, dobj);
	fx_expect_event(test, l, DDM_UEVENT_REMOVE, drvobj);
	KUNIT_EXPECT_FALSE(test, hp_has_driver_link(dev));
	/* Only our reference is left: no link pins the driver's object. */
	KUNIT_EXPECT_EQ(test, kref_read(&drvobj->kref), 1U);
	ddm_object_put(drvobj);
	ddm_device_unregister(dev);
	/* The queued event holds the object: the pointer is still valid. */
	fx_expect_event(test, l, DDM_UEVENT_REMOVE, dobj);
	fx_teardown(test, c, 1);
}

/* --- a listener thread --------------------------------------------------- */

#define HP_THREAD_OBJS	200

/*
 * The fixture's small udev (struct fx_udev) hears every "add" and looks
 * the device number up at once; each object is removed only once it
 * has, so an absent attribute can only mean one not made yet.
 */
static void ddm_hotplug_listener_thread_finds_attrs(struct kunit *test)
{
	struct fx_udev *u = kunit_kzalloc(test, sizeof(*u), GFP_KERNEL);
	struct ddm_object *obj;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, u);
	fx_udev_start(test, u, fx_listener(test));
	for (i = 0; i < HP_THREAD_OBJS; i++) {
		obj = ddm_object_alloc();
		if (!obj)
			break;
		obj->devt = DDM_MKDEV(HP_MAJOR, i);
		if (ddm_object_add(obj, NULL, "hp-obj")) {
			ddm_object_put(obj);
			break;
		}
		if (ddm_object_add_devt_attr(obj, obj->devt) ||
		    ddm_object_uevent(obj, DDM_UEVENT_ADD) ||
		    !fx_udev_handled(u)) {
			ddm_object_del(obj);
			ddm_object_put(obj);
			break;
		}
		ddm_object_unregister(obj);
	}
	KUNIT_EXPECT_EQ(test, i, HP_THREAD_OBJS);
	fx_udev_stop(test, u);
	kunit_info(test, "listener thread: %u events, %u adds, %u misses",
		   u->events, u->adds, u->misses);
	KUNIT_EXPECT_EQ(test, u->events, 2U * HP_THREAD_OBJS);
	KUNIT_EXPECT_EQ(test, u->adds, (unsigned int)HP_THREAD_OBJS);
	KUNIT_EXPECT_EQ(test, u->misses, 0U);
	KUNIT_EXPECT_EQ(test, u->wrong, 0U);
}

/*
 * H2 under real races (the story is at ddm_h2_device_bind_never_before_its_add
 * in tests/unit/userspace/ddm-hotplug-userspace-test.c): a kthread
 * registers a driver while the test adds a device it matches, round
 * after round; whichever wins, the listener hears the device's "add" and
 * the driver's "add" before the device's "bind".  In userspace the forced
 * windows and tests/torture/ddm-event-order find the old order at once;
 * here it runs on the booted kernel's scheduler, two CPUs, no help.
 */
#define HP_H2_ROUNDS	200

struct hp_h2 {
	struct fx_drv *drv;		/* this round's driver */
	struct completion go, done;
	int ret;
};

static int hp_h2_registrar(void *data)
{
	struct hp_h2 *r = data;

	while (fx_wait_or_stop(&r->go)) {
		r->ret = ddm_driver_register(&r->drv->drv);
		complete(&r->done);
	}
	fx_park();
	return 0;
}


static void ddm_hotplug_no_bind_before_add_in_races(struct kunit *test)
{
	struct ddm_listener *l = fx_listener(test);
	struct fx_ctx *c = fx_setup(test);
	struct hp_h2 *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct ddm_uevent *evs[8];
	struct task_struct *t;
	int round, n, bind, out_of_order = 0, unbound = 0;

	KUNIT_ASSERT_NOT_NULL(test, r);
	init_completion(&r->go);
	init_completion(&r->done);
	t = kthread_run(hp_h2_registrar, r, "hp-h2");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	for (round = 0; round < HP_H2_ROUNDS; round++) {
		struct fx_dev *d = fx_dev_alloc(c, 0);

		r->drv = fx_drv_new(test, c, "fx-a", FX_ID(0));
		if (!d)
			break;
		complete(&r->go);
		if (ddm_device_register(&d->dev) ||
		    !wait_for_completion_timeout(&r->done,
						 msecs_to_jiffies(5000)) ||
		    r->ret) {
			KUNIT_FAIL(test, "round %d: a registration failed", round);
			ddm_put_device(&d->dev);
			break;
		}
		if (d->dev.driver != &r->drv->drv)
			unbound++;
		for (n = 0; n < (int)ARRAY_SIZE(evs); n++) {
			evs[n] = ddm_listener_poll(l);
			if (IS_ERR(evs[n]))
				break;
		}
		bind = fx_event_at(evs, n, d->dev.obj, DDM_UEVENT_BIND);
		if (bind < fx_event_at(evs, n, d->dev.obj, DDM_UEVENT_ADD) ||
		    bind < fx_event_at(evs, n, r->drv->drv.obj, DDM_UEVENT_ADD))
			out_of_order++;
		while (n)
			ddm_uevent_free(evs[--n]);
		ddm_device_unregister(&d->dev);
		ddm_driver_unregister(&r->drv->drv);
		ddm_listener_flush(l);
	}
	kthread_stop(t);
	kunit_info(test, "%d rounds: %d binds before an add, %d left unbound",
		   round, out_of_order, unbound);
	KUNIT_EXPECT_EQ(test, out_of_order, 0);
	KUNIT_EXPECT_EQ(test, unbound, 0);
	fx_teardown(test, c, round);
}

static struct kunit_case ddm_hotplug_test_cases[] = {
	KUNIT_CASE(ddm_hotplug_add_and_del_emit_nothing),
	KUNIT_CASE(ddm_hotplug_add_event_after_attrs),
	KUNIT_CASE(ddm_hotplug_register_wrappers_emit),
	KUNIT_CASE(ddm_hotplug_event_for_gone_object_fails),
	KUNIT_CASE(ddm_hotplug_attrs_and_links),
	KUNIT_CASE(ddm_hotplug_slow_listener_loses_nothing),
	KUNIT_CASE(ddm_hotplug_unsubscribe_keeps_queued_events),
	KUNIT_CASE(ddm_hotplug_flush_drops_references),
	KUNIT_CASE(ddm_hotplug_device_events_in_order),
	KUNIT_CASE(ddm_hotplug_driver_unregister_events),
	KUNIT_CASE(ddm_hotplug_listener_thread_finds_attrs),
	KUNIT_CASE(ddm_hotplug_no_bind_before_add_in_races),
	{}
};

static struct kunit_suite ddm_hotplug_test_suite = {
	.name = "ddm_hotplug",
	.init = hp_init,
	.exit = fx_listener_exit,
	.test_cases = ddm_hotplug_test_cases,
};

kunit_test_suites(&ddm_hotplug_test_suite);

MODULE_LICENSE("GPL");
