// SPDX-License-Identifier: GPL-2.0
/*
 * uevent.c - hotplug events of ddm objects, queued per listener.
 *
 * The 2005 kobject_hotplug() handed each event to one user-space helper
 * per event; here every subscribed listener (a model of udev) gets its
 * own copy on its own queue.  Nothing is dropped for a slow listener:
 * an event either reaches every listener subscribed at the time, or
 * (out of memory) none and the emitter gets the error.
 *
 * Locking: ddm_uevent_mutex orders emitters and (un)subscriptions, so
 * all listeners see all events in one order (the sequence number).  It
 * is taken inside the device lock and a class's mutex, never around
 * them.  Each listener's spinlock protects its queue against the
 * listener's reader; ->ready (a completion, used as a counter) counts
 * what is queued, so a reader can sleep until there is something.
 */

#include <linux/ddm_object.h>
#include <linux/bug.h>
#include <linux/completion.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/slab.h>

static DEFINE_MUTEX(ddm_uevent_mutex);
static LIST_HEAD(ddm_listeners);
static u64 ddm_uevent_seqnum;

static const char *const ddm_uevent_names[DDM_UEVENT_NR] = {
	[DDM_UEVENT_ADD]	= "add",
	[DDM_UEVENT_REMOVE]	= "remove",
	[DDM_UEVENT_BIND]	= "bind",
	[DDM_UEVENT_UNBIND]	= "unbind",
};

/**
 * ddm_uevent_action_name - the name of an action, as in a uevent
 * @action: the action
 *
 * Return: "add", "remove", "bind", "unbind", or NULL for no action.
 */
const char *ddm_uevent_action_name(enum ddm_uevent_action action)
{
	if ((unsigned int)action >= DDM_UEVENT_NR)
		return NULL;
	return ddm_uevent_names[action];
}
EXPORT_SYMBOL_GPL(ddm_uevent_action_name);

/**
 * ddm_uevent_free - free an event taken from a listener
 * @ev: the event, or NULL
 *
 * Drops the event's reference on its object.  May sleep.
 */
void ddm_uevent_free(struct ddm_uevent *ev)
{
	if (!ev)
		return;
	ddm_object_put(ev->obj);
	kfree(ev);
}
EXPORT_SYMBOL_GPL(ddm_uevent_free);

/**
 * ddm_object_uevent - emit an event for an object
 * @obj: the object, added; the caller holds a reference
 * @action: what happened
 *
 * Queues the event for every subscribed listener.  Emit
 * DDM_UEVENT_ADD after the object's attributes and links exist, and
 * DDM_UEVENT_REMOVE before ddm_object_del().  May sleep.
 *
 * Return: 0 (also with no listener); -EINVAL for a NULL @obj or an
 * unknown @action; -ENOENT if @obj is not added, or deleted already;
 * -ENOMEM, and then no listener got the event.
 */
int ddm_object_uevent(struct ddm_object *obj, enum ddm_uevent_action action)
{
	struct ddm_listener *l;
	struct ddm_uevent *ev;
	LIST_HEAD(batch);
	int ret = 0;

	if (WARN_ON(!obj || !ddm_uevent_action_name(action)))
		return -EINVAL;
	if (!ddm_object_is_added(obj))
		return -ENOENT;

	mutex_lock(&ddm_uevent_mutex);
	/* Allocate every copy first: all listeners get it, or none. */
	list_for_each_entry(l, &ddm_listeners, node) {
		ev = kzalloc(sizeof(*ev), GFP_KERNEL);
		if (!ev) {
			ret = -ENOMEM;
			break;
		}
		ev->action = action;
		ev->obj = ddm_object_get(obj);
		ev->devt = obj->devt;
		list_add_tail(&ev->entry, &batch);
	}
	if (!ret) {
		ddm_uevent_seqnum++;
		list_for_each_entry(l, &ddm_listeners, node) {
			ev = list_first_entry(&batch, struct ddm_uevent, entry);
			ev->seqnum = ddm_uevent_seqnum;
			spin_lock(&l->lock);
			list_move_tail(&ev->entry, &l->events);
			l->queued++;
			spin_unlock(&l->lock);
			complete(&l->ready);
		}
	}
	mutex_unlock(&ddm_uevent_mutex);

	while ((ev = list_first_entry_or_null(&batch, struct ddm_uevent,
					      entry))) {
		list_del(&ev->entry);
		ddm_uevent_free(ev);
	}
	return ret;
}
EXPORT_SYMBOL_GPL(ddm_object_uevent);

/**
 * ddm_listener_init - initialise a listener
 * @l: the listener
 * @name: its name, for messages; not copied
 */
void ddm_listener_init(struct ddm_listener *l, const char *name)
{
	if (WARN_ON(!l))
		return;
	l->name = name;
	INIT_LIST_HEAD(&l->node);
	spin_lock_init(&l->lock);
	INIT_LIST_HEAD(&l->events);
	l->queued = 0;
	l->dead = false;
	init_completion(&l->ready);
	l->subscribed = false;
}
EXPORT_SYMBOL_GPL(ddm_listener_init);

/**
 * ddm_listener_subscribe - start queueing events for a listener
 * @l: the listener, initialised
 *
 * Every event emitted after this returns is queued for @l, until
 * ddm_listener_unsubscribe().  A listener is subscribed once.
 *
 * Return: 0, -EINVAL for a NULL @l, -EBUSY if @l was subscribed before.
 */
int ddm_listener_subscribe(struct ddm_listener *l)
{
	int ret = 0;

	if (WARN_ON(!l))
		return -EINVAL;
	mutex_lock(&ddm_uevent_mutex);
	/* Once unsubscribed, the end of the queue is counted in ->ready. */
	if (l->subscribed || l->dead) {
		ret = -EBUSY;
	} else {
		list_add_tail(&l->node, &ddm_listeners);
		l->subscribed = true;
	}
	mutex_unlock(&ddm_uevent_mutex);
	WARN(ret, "ddm: listener %s subscribed twice\n", l->name);
	return ret;
}
EXPORT_SYMBOL_GPL(ddm_listener_subscribe);

/**
 * ddm_listener_unsubscribe - stop queueing events for a listener
 * @l: the listener, subscribed
 *
 * No event is queued for @l after this returns.  Events queued before
 * stay queued and can still be taken; after the last one,
 * ddm_listener_next() and ddm_listener_poll() return ERR_PTR(-ENODEV),
 * which also wakes a reader sleeping in ddm_listener_next().  Free what
 * is left with ddm_listener_flush() before freeing @l.
 *
 * Return: 0, -EINVAL for a NULL @l, -ENOENT if @l is not subscribed.
 */
int ddm_listener_unsubscribe(struct ddm_listener *l)
{
	bool was;

	if (WARN_ON(!l))
		return -EINVAL;
	mutex_lock(&ddm_uevent_mutex);
	was = l->subscribed;
	if (was) {
		list_del_init(&l->node);
		l->subscribed = false;
		l->dead = true;
	}
	mutex_unlock(&ddm_uevent_mutex);
	if (WARN(!was, "ddm: listener %s unsubscribed but not subscribed\n",
		 l->name))
		return -ENOENT;

	/* The end of the queue counts as one more thing to take. */
	complete(&l->ready);
	return 0;
}
EXPORT_SYMBOL_GPL(ddm_listener_unsubscribe);

/*
 * Take the oldest event off @l's queue, for one count of ->ready the
 * caller has taken.  Every queued event has a count, so an empty queue
 * means the count was the end of the queue: put it back for the next
 * reader.
 */
static struct ddm_uevent *ddm_listener_take(struct ddm_listener *l)
{
	struct ddm_uevent *ev;

	spin_lock(&l->lock);
	ev = list_first_entry_or_null(&l->events, struct ddm_uevent, entry);
	if (ev) {
		list_del_init(&ev->entry);
		l->queued--;
	}
	spin_unlock(&l->lock);
	if (ev)
		return ev;
	complete(&l->ready);
	return ERR_PTR(-ENODEV);
}

/**
 * ddm_listener_next - take the next event, waiting for one
 * @l: the listener
 *
 * Events come in the order they were emitted.  May sleep.
 *
 * Return: the event (free it with ddm_uevent_free()); ERR_PTR(-ENODEV)
 * once @l is unsubscribed and its queue is empty.
 */
struct ddm_uevent *ddm_listener_next(struct ddm_listener *l)
{
	if (WARN_ON(!l))
		return ERR_PTR(-EINVAL);
	wait_for_completion(&l->ready);
	return ddm_listener_take(l);
}
EXPORT_SYMBOL_GPL(ddm_listener_next);

/**
 * ddm_listener_poll - take the next event if there is one
 * @l: the listener
 *
 * Return: the event (free it with ddm_uevent_free()); ERR_PTR(-EAGAIN)
 * if none is queued; ERR_PTR(-ENODEV) once @l is unsubscribed and its
 * queue is empty.
 */
struct ddm_uevent *ddm_listener_poll(struct ddm_listener *l)
{
	if (WARN_ON(!l))
		return ERR_PTR(-EINVAL);
	if (!try_wait_for_completion(&l->ready))
		return ERR_PTR(-EAGAIN);
	return ddm_listener_take(l);
}
EXPORT_SYMBOL_GPL(ddm_listener_poll);

/**
 * ddm_listener_flush - free every event queued for a listener
 * @l: the listener
 *
 * For tearing a listener down after ddm_listener_unsubscribe(), or for
 * skipping a backlog.  Drops the events' references on their objects.
 * May sleep.
 *
 * Return: the number of events freed.
 */
unsigned int ddm_listener_flush(struct ddm_listener *l)
{
	struct ddm_uevent *ev;
	unsigned int n = 0;

	if (WARN_ON(!l))
		return 0;
	/* An event whose count a reader took is left to that reader. */
	while (!IS_ERR(ev = ddm_listener_poll(l))) {
		ddm_uevent_free(ev);
		n++;
	}
	return n;
}
EXPORT_SYMBOL_GPL(ddm_listener_flush);
