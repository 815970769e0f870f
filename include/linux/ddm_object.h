/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ddm_object.h - objects, their attributes and links, and hotplug events
 * with per-listener queues.
 *
 * The kobject of the 2005 driver model after the hotplug split (Kay
 * Sievers, "kobject/hotplug split"): ddm_object_add() and
 * ddm_object_del() emit no event; the owner of an object creates its
 * attributes and links first and then emits the event itself with
 * ddm_object_uevent(), so that a listener reacting to "add" at once finds
 * everything it needs.  ddm_object_register() and
 * ddm_object_unregister() still emit their events, as kobject_register()
 * and kobject_unregister() did.
 *
 * An object's attributes and links model what sysfs shows in its
 * directory: named text values (the `dev` attribute holds
 * "MAJOR:MINOR") and named references to other objects (`device`,
 * `driver`).  They exist only while the object is added.
 *
 * Events are queued for each subscribed listener separately, so a slow
 * listener delays nobody and loses nothing.  An event holds a reference
 * to its object: a listener may look the object up whenever it gets
 * round to it, and finds -ENOENT for what was deleted meanwhile.
 */
#ifndef _LINUX_DDM_OBJECT_H
#define _LINUX_DDM_OBJECT_H

#include <linux/completion.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>

/*
 * Device numbers.  The kernel's dev_t layout (12-bit major, 20-bit
 * minor), under our own names: the userspace shim's dev_t is glibc's
 * 64-bit one and it has no linux/kdev_t.h.
 */
typedef u32 ddm_devt_t;

#define DDM_MINORBITS		20
#define DDM_MINORMASK		((1U << DDM_MINORBITS) - 1)
#define DDM_MKDEV(ma, mi) \
	(((ddm_devt_t)(ma) << DDM_MINORBITS) | ((ddm_devt_t)(mi) & DDM_MINORMASK))
#define DDM_MAJOR(dev)		((unsigned int)((dev) >> DDM_MINORBITS))
#define DDM_MINOR(dev)		((unsigned int)((dev) & DDM_MINORMASK))

/* Room for the text of a `dev` attribute: "4095:1048575" and a NUL. */
#define DDM_DEVT_TEXT_LEN	16

/**
 * struct ddm_object - a named, reference-counted object with attributes
 * @name: set by ddm_object_add(); stable until the object is released.
 * @parent: set by ddm_object_add(), which takes a reference on it; the
 *	reference is dropped when the object is released.
 * @devt: the device number events report for the object (0: none).  Set
 *	by the owner before it emits events.
 * @release: frees the structure around the object.  Required.
 * @kref: see ddm_object_get() and ddm_object_put().
 * @lock: protects @state and @entries.
 * @state: enum ddm_object_state; core only.
 * @entries: the attributes and links; core only.
 */
struct ddm_object {
	const char		*name;
	struct ddm_object	*parent;
	ddm_devt_t		devt;
	void			(*release)(struct ddm_object *obj);

	struct kref		kref;
	spinlock_t		lock;
	int			state;
	struct list_head	entries;
};

/* Object states: only ever move forwards, an object is added once. */
enum ddm_object_state {
	DDM_OBJ_INITIAL = 0,
	DDM_OBJ_ADDED,
	DDM_OBJ_DELETED,
};

/* --- objects (lib/ddm/object.c) ----------------------------------------- */

void ddm_object_init(struct ddm_object *obj,
		     void (*release)(struct ddm_object *obj));
int ddm_object_add(struct ddm_object *obj, struct ddm_object *parent,
		   const char *name);
void ddm_object_del(struct ddm_object *obj);
int ddm_object_register(struct ddm_object *obj, struct ddm_object *parent,
			const char *name);
void ddm_object_unregister(struct ddm_object *obj);
struct ddm_object *ddm_object_alloc(void);
struct ddm_object *ddm_object_create(struct ddm_object *parent,
				     const char *name);
struct ddm_object *ddm_object_get(struct ddm_object *obj);
void ddm_object_put(struct ddm_object *obj);
bool ddm_object_is_added(struct ddm_object *obj);

/* --- attributes and links (lib/ddm/object.c) ---------------------------- */

int ddm_object_add_attr(struct ddm_object *obj, const char *name,
			const char *value);
int ddm_object_add_devt_attr(struct ddm_object *obj, ddm_devt_t devt);
int ddm_object_remove_attr(struct ddm_object *obj, const char *name);
ssize_t ddm_object_read_attr(struct ddm_object *obj, const char *name,
			     char *buf, size_t size);
int ddm_object_add_link(struct ddm_object *obj, const char *name,
			struct ddm_object *target);
int ddm_object_remove_link(struct ddm_object *obj, const char *name);
struct ddm_object *ddm_object_get_link(struct ddm_object *obj,
				       const char *name);

/* --- events and listeners (lib/ddm/uevent.c) ---------------------------- */

/* What happened to an object (the kernel's KOBJ_ADD, ...). */
enum ddm_uevent_action {
	DDM_UEVENT_ADD,
	DDM_UEVENT_REMOVE,
	DDM_UEVENT_BIND,
	DDM_UEVENT_UNBIND,
	DDM_UEVENT_NR,
};

/**
 * struct ddm_uevent - one event, as queued for one listener
 * @entry: on the listener's queue; core only.
 * @action: what happened.
 * @obj: the object; the event holds a reference until ddm_uevent_free().
 * @devt: @obj's device number when the event was emitted (0: none), so
 *	a "remove" can be handled after the `dev` attribute is gone.
 * @seqnum: events are numbered in the order they were emitted, across
 *	all objects; every listener sees them in that order.
 */
struct ddm_uevent {
	struct list_head	entry;
	enum ddm_uevent_action	action;
	struct ddm_object	*obj;
	ddm_devt_t		devt;
	u64			seqnum;
};

/**
 * struct ddm_listener - a subscriber to events, with its own queue
 * @name: for messages.
 * @node: on the list of listeners; core only.
 * @lock: protects @events and @queued.
 * @events: events not taken yet, oldest first.
 * @queued: number of events on @events.
 * @ready: one count per queued event, and one more once unsubscribed.
 * @subscribed: on the list of listeners (under the core's mutex).
 * @dead: unsubscribed, for good (under the core's mutex).
 */
struct ddm_listener {
	const char		*name;
	struct list_head	node;
	spinlock_t		lock;
	struct list_head	events;
	unsigned int		queued;
	struct completion	ready;
	bool			subscribed;
	bool			dead;
};

int ddm_object_uevent(struct ddm_object *obj, enum ddm_uevent_action action);
const char *ddm_uevent_action_name(enum ddm_uevent_action action);
void ddm_uevent_free(struct ddm_uevent *ev);

void ddm_listener_init(struct ddm_listener *l, const char *name);
int ddm_listener_subscribe(struct ddm_listener *l);
int ddm_listener_unsubscribe(struct ddm_listener *l);
struct ddm_uevent *ddm_listener_next(struct ddm_listener *l);
struct ddm_uevent *ddm_listener_poll(struct ddm_listener *l);
unsigned int ddm_listener_flush(struct ddm_listener *l);

/**
 * ddm_object_name - the name of an object
 * @obj: the object; the caller holds a reference
 *
 * Return: the name given to ddm_object_add(), or NULL before that.
 */
static inline const char *ddm_object_name(const struct ddm_object *obj)
{
	return obj->name;
}

#endif /* _LINUX_DDM_OBJECT_H */
