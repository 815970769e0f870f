// SPDX-License-Identifier: GPL-2.0
/*
 * class.c - classes and class devices of the ddm core.
 *
 * class_create()/class_destroy() and class_device_create()/
 * class_device_destroy() of 2005, on ddm objects, with the hotplug
 * split applied (H1): a class device's "add" event is emitted after its
 * `dev` attribute and `device` link exist, its "remove" event after
 * they are gone and before its object is deleted (as
 * class_device_del() and 6.1's device_del() do).
 *
 * Locking: a class's mutex protects its device list and is held across
 * a device's insertion and its "add" event, and across its removal and
 * its "remove" event, so listeners never see the two out of order.
 */

#include <linux/ddm_class.h>
#include <linux/ddm.h>
#include <linux/bug.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/lockdep.h>

static struct ddm_class *to_ddm_class(struct ddm_object *obj)
{
	return container_of(obj, struct ddm_class, obj);
}

static struct ddm_class_device *to_ddm_class_device(struct ddm_object *obj)
{
	return container_of(obj, struct ddm_class_device, obj);
}

/* --- classes ------------------------------------------------------------ */

static void ddm_class_release(struct ddm_object *obj)
{
	struct ddm_class *cls = to_ddm_class(obj);

	mutex_destroy(&cls->mutex);
	kfree(cls);
}

/**
 * ddm_class_create - allocate and register a class
 * @owner: the module creating it (THIS_MODULE)
 * @name: its name, copied
 *
 * Emits the class's "add" event.
 *
 * Return: the class, for ddm_class_destroy(); or ERR_PTR(-EINVAL) for a
 * NULL @name, ERR_PTR(-ENOMEM).
 */
struct ddm_class *ddm_class_create(struct module *owner, const char *name)
{
	struct ddm_class *cls;
	int ret;

	if (!name)
		return ERR_PTR(-EINVAL);
	cls = kzalloc(sizeof(*cls), GFP_KERNEL);
	if (!cls)
		return ERR_PTR(-ENOMEM);
	ddm_object_init(&cls->obj, ddm_class_release);
	cls->owner = owner;
	mutex_init(&cls->mutex);
	INIT_LIST_HEAD(&cls->devices);
	ret = ddm_object_register(&cls->obj, NULL, name);
	if (ret) {
		ddm_object_put(&cls->obj);
		return ERR_PTR(ret);
	}
	return cls;
}
EXPORT_SYMBOL_GPL(ddm_class_create);

/* Called with cls->mutex held; takes no reference. */
static struct ddm_class_device *ddm_class_lookup(struct ddm_class *cls,
						 ddm_devt_t devno)
{
	struct ddm_class_device *cd;

	lockdep_assert_held(&cls->mutex);
	list_for_each_entry(cd, &cls->devices, node)
		if (cd->obj.devt == devno)
			return cd;
	return NULL;
}

/*
 * Take a class device off its class and announce it gone.  Called with
 * cls->mutex held; the caller then deletes and puts the object.
 */
static void ddm_class_device_unlink(struct ddm_class_device *cd)
{
	lockdep_assert_held(&cd->cls->mutex);
	list_del_init(&cd->node);
	ddm_object_remove_link(&cd->obj, "device");
	ddm_object_remove_attr(&cd->obj, "dev");
	ddm_object_uevent(&cd->obj, DDM_UEVENT_REMOVE);
}

/**
 * ddm_class_destroy - unregister a class and drop it
 * @cls: the class, or NULL or an ERR_PTR() (nothing is done)
 *
 * Emits the class's "remove" event.  The class's devices should be
 * destroyed first; any left are reported and destroyed here.  The class
 * is freed once the last reference (ddm_class_get()) is dropped.
 * May sleep.
 */
void ddm_class_destroy(struct ddm_class *cls)
{
	struct ddm_class_device *cd;
	unsigned int left = 0;
	bool dead;

	if (IS_ERR_OR_NULL(cls))
		return;
	mutex_lock(&cls->mutex);
	dead = cls->dead;
	cls->dead = true;
	mutex_unlock(&cls->mutex);
	if (WARN(dead, "ddm: class %s destroyed twice\n", ddm_class_name(cls)))
		return;

	for (;;) {
		mutex_lock(&cls->mutex);
		cd = list_first_entry_or_null(&cls->devices,
					      struct ddm_class_device, node);
		if (cd)
			ddm_class_device_unlink(cd);
		mutex_unlock(&cls->mutex);
		if (!cd)
			break;
		ddm_object_del(&cd->obj);
		ddm_object_put(&cd->obj);
		left++;
	}
	WARN(left, "ddm: class %s destroyed with %u devices left\n",
	     ddm_class_name(cls), left);
	ddm_object_unregister(&cls->obj);
}
EXPORT_SYMBOL_GPL(ddm_class_destroy);

/**
 * ddm_class_get - take a reference on a class
 * @cls: the class, or NULL
 *
 * Keeps the structure, not the class: after ddm_class_destroy() the
 * calls on it fail with -ENODEV.
 *
 * Return: @cls.
 */
struct ddm_class *ddm_class_get(struct ddm_class *cls)
{
	if (cls)
		ddm_object_get(&cls->obj);
	return cls;
}
EXPORT_SYMBOL_GPL(ddm_class_get);

/**
 * ddm_class_put - drop a reference on a class
 * @cls: the class, or NULL
 */
void ddm_class_put(struct ddm_class *cls)
{
	if (cls)
		ddm_object_put(&cls->obj);
}
EXPORT_SYMBOL_GPL(ddm_class_put);

/* --- class devices ------------------------------------------------------ */

static void ddm_class_device_release(struct ddm_object *obj)
{
	kfree(to_ddm_class_device(obj));
}

/**
 * __ddm_class_device_create - create a class device with a given name
 * @cls: the class
 * @devno: its device number
 * @device: the device it belongs to, or NULL
 * @name: its name, from kmalloc(); freed here in every case.  NULL
 *	(the allocation failed) makes this fail with -ENOMEM.
 *
 * See ddm_class_device_create(), which is what to call.  May sleep.
 */
struct ddm_class_device *__ddm_class_device_create(struct ddm_class *cls,
						   ddm_devt_t devno,
						   struct ddm_device *device,
						   char *name)
{
	struct ddm_object *target = NULL;
	struct ddm_class_device *cd;
	int ret;

	if (!name)
		return ERR_PTR(-ENOMEM);
	ret = -EINVAL;
	if (IS_ERR_OR_NULL(cls) || !devno)
		goto free_name;
	if (device) {
		ret = -ENODEV;
		/* Pairs with the WRITE_ONCE() in ddm_device_add_object(). */
		target = READ_ONCE(device->obj);
		if (!target)
			goto free_name;
	}
	ret = -ENOMEM;
	cd = kzalloc(sizeof(*cd), GFP_KERNEL);
	if (!cd)
		goto free_name;
	ddm_object_init(&cd->obj, ddm_class_device_release);
	cd->obj.devt = devno;
	cd->cls = cls;
	INIT_LIST_HEAD(&cd->node);

	/* A destroyed class's object is deleted: -ENOENT, reported below. */
	ret = ddm_object_add(&cd->obj, &cls->obj, name);
	kfree(name);
	if (ret)
		goto put;
	/* H1: everything a listener looks up exists before the event. */
	ret = ddm_object_add_devt_attr(&cd->obj, devno);
	if (!ret && target)
		ret = ddm_object_add_link(&cd->obj, "device", target);
	if (ret)
		goto del;

	mutex_lock(&cls->mutex);
	if (cls->dead)
		ret = -ENODEV;
	else if (ddm_class_lookup(cls, devno))
		ret = -EEXIST;
	else
		ret = ddm_object_uevent(&cd->obj, DDM_UEVENT_ADD);
	if (!ret)
		list_add_tail(&cd->node, &cls->devices);
	mutex_unlock(&cls->mutex);
	if (ret)
		goto del;
	return cd;

del:
	ddm_object_del(&cd->obj);
put:
	/* The device's `device` link target is gone: report the device. */
	if (ret == -ENOENT)
		ret = -ENODEV;
	ddm_object_put(&cd->obj);
	return ERR_PTR(ret);

free_name:
	kfree(name);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(__ddm_class_device_create);

/**
 * ddm_class_device_destroy - remove the class device with a number
 * @cls: the class
 * @devno: the device number
 *
 * Emits the device's "remove" event after its `dev` attribute and
 * `device` link are gone.  May sleep.
 *
 * Return: 0; -EINVAL for a NULL or ERR_PTR() @cls; -ENODEV if @cls is
 * destroyed; -ENOENT if @cls has no device numbered @devno.
 */
int ddm_class_device_destroy(struct ddm_class *cls, ddm_devt_t devno)
{
	struct ddm_class_device *cd;
	int ret = 0;

	if (IS_ERR_OR_NULL(cls))
		return -EINVAL;
	mutex_lock(&cls->mutex);
	cd = NULL;
	if (cls->dead)
		ret = -ENODEV;
	else
		cd = ddm_class_lookup(cls, devno);
	if (cd)
		ddm_class_device_unlink(cd);
	else if (!ret)
		ret = -ENOENT;
	mutex_unlock(&cls->mutex);
	if (ret)
		return ret;
	ddm_object_del(&cd->obj);
	ddm_object_put(&cd->obj);
	return 0;
}
EXPORT_SYMBOL_GPL(ddm_class_device_destroy);

/**
 * ddm_class_find_device - look a class device up by number
 * @cls: the class
 * @devno: the device number
 *
 * Return: the class device with a reference taken (drop it with
 * ddm_class_device_put()), or NULL if @cls (NULL, destroyed) has no
 * device numbered @devno.
 */
struct ddm_class_device *ddm_class_find_device(struct ddm_class *cls,
					       ddm_devt_t devno)
{
	struct ddm_class_device *cd;

	if (IS_ERR_OR_NULL(cls))
		return NULL;
	mutex_lock(&cls->mutex);
	cd = ddm_class_lookup(cls, devno);
	if (cd)
		ddm_object_get(&cd->obj);
	mutex_unlock(&cls->mutex);
	return cd;
}
EXPORT_SYMBOL_GPL(ddm_class_find_device);

/**
 * ddm_class_device_put - drop a reference on a class device
 * @cd: the class device, or NULL
 *
 * May sleep.
 */
void ddm_class_device_put(struct ddm_class_device *cd)
{
	if (cd)
		ddm_object_put(&cd->obj);
}
EXPORT_SYMBOL_GPL(ddm_class_device_put);
