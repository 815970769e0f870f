// SPDX-License-Identifier: GPL-2.0
/*
 * object.c - objects of the ddm core and their attributes and links.
 *
 * The kobject of the 2005 driver model after the hotplug split (H1):
 * adding or deleting an object emits no event (lib/ddm/uevent.c emits
 * them on request), only the register/unregister wrappers do.
 * Attributes and links stand in for the files and symlinks of the
 * object's sysfs directory; see include/linux/ddm_object.h.
 *
 * Locking: obj->lock (a spinlock) protects the object's state and its
 * entries.  Entries are allocated before and freed after the lock is
 * held, and a link's target is put with the lock dropped, since the put
 * may release the target.
 */

#include <linux/ddm_object.h>
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

/*
 * One attribute or link.  An attribute has @value (stored after the
 * name), a link has @target, on which it holds a reference.
 */
struct ddm_object_entry {
	struct list_head	node;
	struct ddm_object	*target;
	const char		*value;
	char			name[];
};

static struct ddm_object_entry *ddm_entry_alloc(const char *name,
						const char *value)
{
	size_t nlen = strlen(name) + 1;
	size_t vlen = value ? strlen(value) + 1 : 0;
	struct ddm_object_entry *e;

	e = kzalloc(sizeof(*e) + nlen + vlen, GFP_KERNEL);
	if (!e)
		return NULL;
	memcpy(e->name, name, nlen);
	if (value) {
		memcpy(e->name + nlen, value, vlen);
		e->value = e->name + nlen;
	}
	return e;
}

static void ddm_entry_free(struct ddm_object_entry *e)
{
	ddm_object_put(e->target);
	kfree(e);
}

/* Called with obj->lock held. */
static struct ddm_object_entry *ddm_entry_find(struct ddm_object *obj,
					       const char *name)
{
	struct ddm_object_entry *e;

	list_for_each_entry(e, &obj->entries, node)
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}

/*
 * Mark @obj deleted and free its entries, if it is added.  Returns false
 * if it was not.
 */
static bool ddm_object_unlink(struct ddm_object *obj)
{
	struct ddm_object_entry *e;
	LIST_HEAD(gone);

	spin_lock(&obj->lock);
	if (obj->state != DDM_OBJ_ADDED) {
		spin_unlock(&obj->lock);
		return false;
	}
	obj->state = DDM_OBJ_DELETED;
	while (!list_empty(&obj->entries))
		list_move_tail(obj->entries.next, &gone);
	spin_unlock(&obj->lock);

	while ((e = list_first_entry_or_null(&gone, struct ddm_object_entry,
					     node))) {
		list_del(&e->node);
		ddm_entry_free(e);
	}
	return true;
}

/* --- objects ------------------------------------------------------------ */

/**
 * ddm_object_init - initialise an object
 * @obj: the object, in zeroed or otherwise unused memory
 * @release: frees the structure around @obj after the last put
 *
 * The caller holds the one reference afterwards.  @obj->devt may be set
 * any time before the object's first event.
 */
void ddm_object_init(struct ddm_object *obj,
		     void (*release)(struct ddm_object *obj))
{
	if (WARN_ON(!obj))
		return;
	WARN(!release, "ddm: object initialised without a release function\n");
	obj->name = NULL;
	obj->parent = NULL;
	obj->release = release;
	kref_init(&obj->kref);
	spin_lock_init(&obj->lock);
	obj->state = DDM_OBJ_INITIAL;
	INIT_LIST_HEAD(&obj->entries);
}
EXPORT_SYMBOL_GPL(ddm_object_init);

/**
 * ddm_object_add - name an initialised object and make it visible
 * @obj: the object
 * @parent: its parent, added, or NULL
 * @name: its name, copied
 *
 * Emits no event (H1): create the attributes and links, then call
 * ddm_object_uevent(@obj, DDM_UEVENT_ADD).  May sleep.
 *
 * Return: 0; -EINVAL for a NULL @obj or @name; -ENOMEM; -ENOENT if
 * @parent is not added (any more); -EBUSY if @obj was added before.
 */
int ddm_object_add(struct ddm_object *obj, struct ddm_object *parent,
		   const char *name)
{
	const char *copy;
	int ret = 0;

	if (WARN_ON(!obj || !name))
		return -EINVAL;
	copy = kstrdup(name, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	if (parent) {
		spin_lock(&parent->lock);
		if (parent->state == DDM_OBJ_ADDED)
			ddm_object_get(parent);
		else
			ret = -ENOENT;
		spin_unlock(&parent->lock);
		if (ret)
			goto free;
	}

	spin_lock(&obj->lock);
	if (obj->state == DDM_OBJ_INITIAL) {
		obj->name = copy;
		obj->parent = parent;
		obj->state = DDM_OBJ_ADDED;
	} else {
		ret = -EBUSY;
	}
	spin_unlock(&obj->lock);
	if (!ret)
		return 0;
	WARN(1, "ddm: object %s added twice\n", name);
	ddm_object_put(parent);
free:
	kfree(copy);
	return ret;
}
EXPORT_SYMBOL_GPL(ddm_object_add);

/**
 * ddm_object_del - make an object invisible
 * @obj: the object, added
 *
 * Removes every attribute and link, dropping the links' references.
 * Emits no event (H1): emit DDM_UEVENT_REMOVE before this.  The caller's
 * reference is left alone.  May sleep.
 */
void ddm_object_del(struct ddm_object *obj)
{
	if (WARN_ON(!obj))
		return;
	WARN(!ddm_object_unlink(obj),
	     "ddm: object %s deleted but not added (deleted twice?)\n",
	     obj->name ?: "(unnamed)");
}
EXPORT_SYMBOL_GPL(ddm_object_del);

/**
 * ddm_object_register - add an object and announce it
 * @obj: the object, initialised
 * @parent: its parent, added, or NULL
 * @name: its name, copied
 *
 * ddm_object_add() then the DDM_UEVENT_ADD event, as kobject_register()
 * still does after the split (H1): for objects whose attributes need not
 * exist before the event.
 *
 * Return: as ddm_object_add(); or the event's error, after which @obj is
 * deleted again.  On error the caller still drops its reference.
 */
int ddm_object_register(struct ddm_object *obj, struct ddm_object *parent,
			const char *name)
{
	int ret;

	ret = ddm_object_add(obj, parent, name);
	if (ret)
		return ret;
	ret = ddm_object_uevent(obj, DDM_UEVENT_ADD);
	if (ret)
		ddm_object_unlink(obj);
	return ret;
}
EXPORT_SYMBOL_GPL(ddm_object_register);

/**
 * ddm_object_unregister - announce an object's removal, delete it and
 *	drop the caller's reference
 * @obj: the object, added
 *
 * An object that is not added is reported and its reference left alone,
 * so that a double unregister does not free it twice.  May sleep.
 */
void ddm_object_unregister(struct ddm_object *obj)
{
	if (WARN_ON(!obj))
		return;
	if (WARN(!ddm_object_is_added(obj),
		 "ddm: object %s unregistered but not added\n",
		 obj->name ?: "(unnamed)"))
		return;
	ddm_object_uevent(obj, DDM_UEVENT_REMOVE);
	ddm_object_del(obj);
	ddm_object_put(obj);
}
EXPORT_SYMBOL_GPL(ddm_object_unregister);

static void ddm_object_free(struct ddm_object *obj)
{
	kfree(obj);
}

/**
 * ddm_object_alloc - allocate and initialise an object
 *
 * For an object that needs no structure around it.  Set @devt, then
 * ddm_object_add() it.
 *
 * Return: the object, with one reference, or NULL.
 */
struct ddm_object *ddm_object_alloc(void)
{
	struct ddm_object *obj;

	obj = kzalloc(sizeof(*obj), GFP_KERNEL);
	if (obj)
		ddm_object_init(obj, ddm_object_free);
	return obj;
}
EXPORT_SYMBOL_GPL(ddm_object_alloc);

/**
 * ddm_object_create - allocate and add an object
 * @parent: its parent, added, or NULL
 * @name: its name, copied
 *
 * Emits no event.  Drop the returned reference with ddm_object_put()
 * after ddm_object_del().
 *
 * Return: the object, or an ERR_PTR() as ddm_object_add().
 */
struct ddm_object *ddm_object_create(struct ddm_object *parent,
				     const char *name)
{
	struct ddm_object *obj;
	int ret;

	obj = ddm_object_alloc();
	if (!obj)
		return ERR_PTR(-ENOMEM);
	ret = ddm_object_add(obj, parent, name);
	if (ret) {
		ddm_object_put(obj);
		return ERR_PTR(ret);
	}
	return obj;
}
EXPORT_SYMBOL_GPL(ddm_object_create);

/**
 * ddm_object_get - take a reference on an object
 * @obj: the object, or NULL
 *
 * Return: @obj.
 */
struct ddm_object *ddm_object_get(struct ddm_object *obj)
{
	if (obj)
		kref_get(&obj->kref);
	return obj;
}
EXPORT_SYMBOL_GPL(ddm_object_get);

static void ddm_object_release(struct kref *kref)
{
	struct ddm_object *obj = container_of(kref, struct ddm_object, kref);
	struct ddm_object *parent = obj->parent;
	const char *name = obj->name;

	/* Nothing can announce its removal now: its count is zero. */
	WARN(ddm_object_unlink(obj),
	     "ddm: object %s released while added\n", name);
	if (obj->release)
		obj->release(obj);
	kfree(name);
	ddm_object_put(parent);
}

/**
 * ddm_object_put - drop a reference on an object
 * @obj: the object, or NULL
 *
 * The last one calls @obj->release, then drops the parent.  May sleep.
 */
void ddm_object_put(struct ddm_object *obj)
{
	if (obj)
		kref_put(&obj->kref, ddm_object_release);
}
EXPORT_SYMBOL_GPL(ddm_object_put);

/**
 * ddm_object_is_added - is an object added and not deleted?
 * @obj: the object
 *
 * Return: the state at the time of the call.
 */
bool ddm_object_is_added(struct ddm_object *obj)
{
	bool added;

	spin_lock(&obj->lock);
	added = obj->state == DDM_OBJ_ADDED;
	spin_unlock(&obj->lock);
	return added;
}
EXPORT_SYMBOL_GPL(ddm_object_is_added);

/* --- attributes and links ----------------------------------------------- */

/* Insert @e into @obj unless the object is gone or the name is taken. */
static int ddm_entry_insert(struct ddm_object *obj,
			    struct ddm_object_entry *e)
{
	int ret = 0;

	spin_lock(&obj->lock);
	if (obj->state != DDM_OBJ_ADDED)
		ret = -ENOENT;
	else if (ddm_entry_find(obj, e->name))
		ret = -EEXIST;
	else
		list_add_tail(&e->node, &obj->entries);
	spin_unlock(&obj->lock);
	if (ret)
		ddm_entry_free(e);
	return ret;
}

/**
 * ddm_object_add_attr - add an attribute to an object
 * @obj: the object, added
 * @name: the attribute's name, copied
 * @value: its text, copied
 *
 * Return: 0; -EINVAL for NULL arguments; -ENOMEM; -ENOENT if @obj is not
 * added; -EEXIST if @obj has an attribute or link called @name.
 */
int ddm_object_add_attr(struct ddm_object *obj, const char *name,
			const char *value)
{
	struct ddm_object_entry *e;

	if (WARN_ON(!obj || !name || !value))
		return -EINVAL;
	e = ddm_entry_alloc(name, value);
	if (!e)
		return -ENOMEM;
	return ddm_entry_insert(obj, e);
}
EXPORT_SYMBOL_GPL(ddm_object_add_attr);

/**
 * ddm_object_add_devt_attr - add the `dev` attribute: "MAJOR:MINOR"
 * @obj: the object, added
 * @devt: the device number
 *
 * Return: as ddm_object_add_attr().
 */
int ddm_object_add_devt_attr(struct ddm_object *obj, ddm_devt_t devt)
{
	char buf[DDM_DEVT_TEXT_LEN];

	scnprintf(buf, sizeof(buf), "%u:%u", DDM_MAJOR(devt), DDM_MINOR(devt));
	return ddm_object_add_attr(obj, "dev", buf);
}
EXPORT_SYMBOL_GPL(ddm_object_add_devt_attr);

/* Take the entry called @name off @obj if it is a link (or not). */
static int ddm_entry_remove(struct ddm_object *obj, const char *name,
			    bool link)
{
	struct ddm_object_entry *e;

	if (WARN_ON(!obj || !name))
		return -EINVAL;
	spin_lock(&obj->lock);
	e = ddm_entry_find(obj, name);
	if (e && !e->target == !link)
		list_del(&e->node);
	else
		e = NULL;
	spin_unlock(&obj->lock);
	if (!e)
		return -ENOENT;
	ddm_entry_free(e);
	return 0;
}

/**
 * ddm_object_remove_attr - remove an attribute from an object
 * @obj: the object
 * @name: the attribute's name
 *
 * Return: 0, or -ENOENT if @obj has no attribute called @name.
 */
int ddm_object_remove_attr(struct ddm_object *obj, const char *name)
{
	return ddm_entry_remove(obj, name, false);
}
EXPORT_SYMBOL_GPL(ddm_object_remove_attr);

/**
 * ddm_object_read_attr - read an attribute of an object
 * @obj: the object; the caller holds a reference
 * @name: the attribute's name
 * @buf: where to copy the text, NUL-terminated
 * @size: the size of @buf
 *
 * Safe against the attribute being removed concurrently: the text is
 * copied under the object's lock.
 *
 * Return: the length of the text; -ENOENT if @obj has no attribute
 * called @name (also once @obj is deleted); -E2BIG if it does not fit,
 * @buf then holds as much as fits.
 */
ssize_t ddm_object_read_attr(struct ddm_object *obj, const char *name,
			     char *buf, size_t size)
{
	struct ddm_object_entry *e;
	ssize_t ret = -ENOENT;
	size_t len;

	if (WARN_ON(!obj || !name || !buf || !size))
		return -EINVAL;
	spin_lock(&obj->lock);
	e = ddm_entry_find(obj, name);
	if (e && e->value) {
		len = strlen(e->value);
		ret = len;
		if (len >= size) {
			len = size - 1;
			ret = -E2BIG;
		}
		memcpy(buf, e->value, len);
		buf[len] = '\0';
	}
	spin_unlock(&obj->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(ddm_object_read_attr);

/**
 * ddm_object_add_link - add a link from an object to another
 * @obj: the object, added
 * @name: the link's name, copied
 * @target: the object linked to, added; the link holds a reference
 *
 * Return: 0; -EINVAL for NULL arguments; -ENOMEM; -ENOENT if @obj or
 * @target is not added; -EEXIST if @obj has an attribute or link called
 * @name.
 */
int ddm_object_add_link(struct ddm_object *obj, const char *name,
			struct ddm_object *target)
{
	struct ddm_object_entry *e;

	if (WARN_ON(!obj || !name || !target))
		return -EINVAL;
	/* As sysfs_create_link(): no links to what has gone. */
	if (!ddm_object_is_added(target))
		return -ENOENT;
	e = ddm_entry_alloc(name, NULL);
	if (!e)
		return -ENOMEM;
	e->target = ddm_object_get(target);
	return ddm_entry_insert(obj, e);
}
EXPORT_SYMBOL_GPL(ddm_object_add_link);

/**
 * ddm_object_remove_link - remove a link from an object
 * @obj: the object
 * @name: the link's name
 *
 * Drops the link's reference on its target.  May sleep.
 *
 * Return: 0, or -ENOENT if @obj has no link called @name.
 */
int ddm_object_remove_link(struct ddm_object *obj, const char *name)
{
	return ddm_entry_remove(obj, name, true);
}
EXPORT_SYMBOL_GPL(ddm_object_remove_link);

/**
 * ddm_object_get_link - follow a link of an object
 * @obj: the object; the caller holds a reference
 * @name: the link's name
 *
 * Return: the target with a reference taken (drop it with
 * ddm_object_put()); ERR_PTR(-ENOENT) if @obj has no link called @name
 * (also once @obj is deleted).
 */
struct ddm_object *ddm_object_get_link(struct ddm_object *obj,
				       const char *name)
{
	struct ddm_object_entry *e;
	struct ddm_object *target = ERR_PTR(-ENOENT);

	if (WARN_ON(!obj || !name))
		return ERR_PTR(-EINVAL);
	spin_lock(&obj->lock);
	e = ddm_entry_find(obj, name);
	/* The link's own reference keeps the count above zero here. */
	if (e && e->target)
		target = ddm_object_get(e->target);
	spin_unlock(&obj->lock);
	return target;
}
EXPORT_SYMBOL_GPL(ddm_object_get_link);
