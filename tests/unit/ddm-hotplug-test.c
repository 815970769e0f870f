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
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/string.h>

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

/* Every case starts with one subscribed listener, test->priv. */
static int hp_init(struct kunit *test)
{
	struct ddm_listener *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);

	if (!l)
		return -ENOMEM;
	atomic_set(&hp_released, 0);
	ddm_listener_init(l, "hp-listener");
	test->priv = l;
	return ddm_listener_subscribe(l);
}

/* Also after a failed assertion: no listener outlives its case. */
static void hp_exit(struct kunit *test)
{
	struct ddm_listener *l = test->priv;

	if (l->subscribed)
		ddm_listener_unsubscribe(l);
	ddm_listener_flush(l);
}

static struct ddm_listener *hp_listener(struct kunit *test)
{
	return test->priv;
}

/* Take the next event, which must be @action on @obj. */
static u64 hp_expect_event(struct kunit *test, struct ddm_listener *l,
			   enum ddm_uevent_action action,
			   struct ddm_object *obj)
{
	struct ddm_uevent *ev = ddm_listener_poll(l);
	u64 seqnum;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ev);
	KUNIT_EXPECT_STREQ(test, ddm_uevent_action_name(ev->action),
			   ddm_uevent_action_name(action));
	KUNIT_EXPECT_PTR_EQ(test, ev->obj, obj);
	seqnum = ev->seqnum;
	ddm_uevent_free(ev);
	return seqnum;
}

static void hp_expect_no_event(struct kunit *test, struct ddm_listener *l)
{
	KUNIT_EXPECT_PTR_EQ(test, ddm_listener_poll(l), ERR_PTR(-EAGAIN));
}

/* --- objects and events -------------------------------------------------- */

/* The split itself: adding, attributes and deleting announce nothing. */
static void ddm_hotplug_add_and_del_emit_nothing(struct kunit *test)
{
	struct ddm_listener *l = hp_listener(test);
	struct ddm_object *obj;

	obj = ddm_object_create(NULL, "hp-obj");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, obj);
	KUNIT_EXPECT_TRUE(test, ddm_object_is_added(obj));
	KUNIT_EXPECT_STREQ(test, ddm_object_name(obj), "hp-obj");
	KUNIT_EXPECT_EQ(test, ddm_object_add_attr(obj, "size", "42"), 0);
	ddm_object_del(obj);
	KUNIT_EXPECT_FALSE(test, ddm_object_is_added(obj));
	hp_expect_no_event(test, l);
	KUNIT_EXPECT_EQ(test, l->queued, 0U);
	ddm_object_put(obj);
}

/* The owner announces the object once its attribute and link exist. */
static void ddm_hotplug_add_event_after_attrs(struct kunit *test)
{
	struct ddm_listener *l = hp_listener(test);
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
	hp_expect_no_event(test, l);
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
	struct ddm_listener *l = hp_listener(test);
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
	hp_expect_event(test, l, DDM_UEVENT_ADD, &it->obj);

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
	struct ddm_listener *l = hp_listener(test);
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
	hp_expect_no_event(test, l);
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
	struct ddm_listener *fast = hp_listener(test);
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
	hp_expect_no_event(test, slow);
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
	struct ddm_listener *l = hp_listener(test);
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

	hp_expect_event(test, l, DDM_UEVENT_ADD, &it->obj);
	hp_expect_event(test, l, DDM_UEVENT_ADD, other);
	hp_expect_event(test, l, DDM_UEVENT_REMOVE, &it->obj);
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
	struct ddm_listener *l = hp_listener(test);
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

struct hp_dd {
	struct ddm_bus bus;
	struct ddm_driver drv;
	struct ddm_device *dev;
	bool link_in_probe, link_in_remove;
	atomic_t released;
};

static struct hp_dd *hp_dd_of(struct ddm_device *dev)
{
	return container_of(dev->bus, struct hp_dd, bus);
}

static bool hp_has_driver_link(struct ddm_device *dev)
{
	struct ddm_object *link = ddm_object_get_link(dev->obj, "driver");

	if (IS_ERR(link))
		return false;
	ddm_object_put(link);
	return true;
}

static int hp_probe(struct ddm_device *dev)
{
	hp_dd_of(dev)->link_in_probe = hp_has_driver_link(dev);
	return 0;
}

static void hp_remove(struct ddm_device *dev)
{
	hp_dd_of(dev)->link_in_remove = hp_has_driver_link(dev);
}

static void hp_dev_release(struct ddm_device *dev)
{
	atomic_inc(&hp_dd_of(dev)->released);
	kfree(dev);
}

static struct hp_dd *hp_dd_setup(struct kunit *test)
{
	struct hp_dd *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, d);
	d->bus.name = "hp-bus";
	KUNIT_ASSERT_EQ(test, ddm_bus_register(&d->bus), 0);
	d->drv.name = "hp-drv";
	d->drv.bus = &d->bus;
	d->drv.probe = hp_probe;
	d->drv.remove = hp_remove;
	return d;
}

static struct ddm_device *hp_dev_new(struct kunit *test, struct hp_dd *d,
				     ddm_devt_t devt)
{
	struct ddm_device *dev = kzalloc(sizeof(*dev), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, dev);
	dev->name = "hp-dev";
	dev->bus = &d->bus;
	dev->devt = devt;
	dev->release = hp_dev_release;
	return dev;
}

/*
 * A device's events, in order: "add" with its `dev` attribute present,
 * "bind" with its `driver` link present, "unbind" while the link is
 * still there, "remove" once the attribute has gone.
 */
static void ddm_hotplug_device_events_in_order(struct kunit *test)
{
	struct ddm_listener *l = hp_listener(test);
	struct hp_dd *d = hp_dd_setup(test);
	struct ddm_device *dev = hp_dev_new(test, d, DDM_MKDEV(HP_MAJOR, 7));
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
	KUNIT_EXPECT_STREQ(test, ddm_object_name(ev->obj), "hp-dev");
	KUNIT_EXPECT_EQ(test, ddm_object_read_attr(ev->obj, "dev", buf,
						   sizeof(buf)), 5L);
	KUNIT_EXPECT_STREQ(test, buf, "240:7");
	ddm_uevent_free(ev);
	hp_expect_no_event(test, l);

	KUNIT_ASSERT_EQ(test, ddm_driver_register(&d->drv), 0);
	drvobj = ddm_object_get(d->drv.obj);
	hp_expect_event(test, l, DDM_UEVENT_ADD, drvobj);
	hp_expect_event(test, l, DDM_UEVENT_BIND, dobj);
	KUNIT_EXPECT_PTR_EQ(test, dev->driver, &d->drv);
	/* Made after a successful probe, before the event. */
	KUNIT_EXPECT_FALSE(test, d->link_in_probe);
	link = ddm_object_get_link(dobj, "driver");
	KUNIT_EXPECT_PTR_EQ(test, link, drvobj);
	if (!IS_ERR(link))
		ddm_object_put(link);

	ddm_device_release_driver(dev);
	hp_expect_event(test, l, DDM_UEVENT_UNBIND, dobj);
	KUNIT_EXPECT_TRUE(test, d->link_in_remove);
	KUNIT_EXPECT_FALSE(test, hp_has_driver_link(dev));

	KUNIT_EXPECT_EQ(test, ddm_device_attach(dev), 1);
	hp_expect_event(test, l, DDM_UEVENT_BIND, dobj);
	ddm_device_unregister(dev);
	hp_expect_event(test, l, DDM_UEVENT_UNBIND, dobj);
	hp_expect_event(test, l, DDM_UEVENT_REMOVE, dobj);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->released), 1);
	/* The device is gone; its object stays while we hold it. */
	KUNIT_EXPECT_FALSE(test, ddm_object_is_added(dobj));
	KUNIT_EXPECT_EQ(test, ddm_object_read_attr(dobj, "dev", buf,
						   sizeof(buf)), (long)-ENOENT);
	ddm_object_put(dobj);

	ddm_driver_unregister(&d->drv);
	hp_expect_event(test, l, DDM_UEVENT_REMOVE, drvobj);
	KUNIT_EXPECT_NULL(test, d->drv.obj);
	KUNIT_EXPECT_FALSE(test, ddm_object_is_added(drvobj));
	ddm_object_put(drvobj);
	hp_expect_no_event(test, l);
	ddm_bus_unregister(&d->bus);
}

/* A driver unregistering announces its devices' unbinds, then itself. */
static void ddm_hotplug_driver_unregister_events(struct kunit *test)
{
	struct ddm_listener *l = hp_listener(test);
	struct hp_dd *d = hp_dd_setup(test);
	struct ddm_device *dev = hp_dev_new(test, d, 0);
	struct ddm_object *drvobj, *dobj;
	char buf[HP_BUF];

	KUNIT_ASSERT_EQ(test, ddm_driver_register(&d->drv), 0);
	drvobj = ddm_object_get(d->drv.obj);
	hp_expect_event(test, l, DDM_UEVENT_ADD, drvobj);
	KUNIT_ASSERT_EQ(test, ddm_device_register(dev), 0);
	dobj = dev->obj;
	hp_expect_event(test, l, DDM_UEVENT_ADD, dobj);
	hp_expect_event(test, l, DDM_UEVENT_BIND, dobj);
	/* No device number, no `dev` attribute. */
	KUNIT_EXPECT_EQ(test, ddm_object_read_attr(dev->obj, "dev", buf,
						   sizeof(buf)), (long)-ENOENT);

	ddm_driver_unregister(&d->drv);
	hp_expect_event(test, l, DDM_UEVENT_UNBIND, dobj);
	hp_expect_event(test, l, DDM_UEVENT_REMOVE, drvobj);
	KUNIT_EXPECT_FALSE(test, hp_has_driver_link(dev));
	/* Only our reference is left: no link pins the driver's object. */
	KUNIT_EXPECT_EQ(test, kref_read(&drvobj->kref), 1U);
	ddm_object_put(drvobj);
	ddm_device_unregister(dev);
	/* The queued event holds the object: the pointer is still valid. */
	hp_expect_event(test, l, DDM_UEVENT_REMOVE, dobj);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->released), 1);
	ddm_bus_unregister(&d->bus);
}

/* --- a listener thread --------------------------------------------------- */

#define HP_THREAD_OBJS	200

struct hp_reader {
	struct ddm_listener *l;
	struct completion handled;	/* one per "add" */
	struct completion done;
	unsigned int events, adds, misses;
};

/*
 * A small udev: on "add", look the device number up at once.  The
 * creator waits for that before it removes the object again, so an
 * absent attribute can only mean one not made yet.
 */
static int hp_reader_thread(void *data)
{
	struct hp_reader *r = data;
	struct ddm_uevent *ev;
	char buf[HP_BUF];

	while (!IS_ERR(ev = ddm_listener_next(r->l))) {
		r->events++;
		if (ev->action == DDM_UEVENT_ADD) {
			r->adds++;
			if (ddm_object_read_attr(ev->obj, "dev", buf,
						 sizeof(buf)) < 0)
				r->misses++;
			complete(&r->handled);
		}
		ddm_uevent_free(ev);
	}
	complete(&r->done);
	while (!kthread_should_stop())
		usleep_range(1000, 2000);
	return 0;
}

static void ddm_hotplug_listener_thread_finds_attrs(struct kunit *test)
{
	struct hp_reader *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct ddm_object *obj;
	struct task_struct *t;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->l = hp_listener(test);
	init_completion(&r->handled);
	init_completion(&r->done);
	t = kthread_run(hp_reader_thread, r, "hp-reader");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
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
		    !wait_for_completion_timeout(&r->handled,
						 msecs_to_jiffies(2000))) {
			ddm_object_del(obj);
			ddm_object_put(obj);
			break;
		}
		ddm_object_unregister(obj);
	}
	KUNIT_EXPECT_EQ(test, i, HP_THREAD_OBJS);
	KUNIT_EXPECT_EQ(test, ddm_listener_unsubscribe(r->l), 0);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&r->done,
				msecs_to_jiffies(2000)), 0UL);
	kthread_stop(t);
	kunit_info(test, "listener thread: %u events, %u adds, %u misses",
		   r->events, r->adds, r->misses);
	KUNIT_EXPECT_EQ(test, r->events, 2U * HP_THREAD_OBJS);
	KUNIT_EXPECT_EQ(test, r->adds, (unsigned int)HP_THREAD_OBJS);
	KUNIT_EXPECT_EQ(test, r->misses, 0U);
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
	{}
};

static struct kunit_suite ddm_hotplug_test_suite = {
	.name = "ddm_hotplug",
	.init = hp_init,
	.exit = hp_exit,
	.test_cases = ddm_hotplug_test_cases,
};

kunit_test_suites(&ddm_hotplug_test_suite);

MODULE_LICENSE("GPL");
