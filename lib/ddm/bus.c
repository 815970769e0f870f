// SPDX-License-Identifier: GPL-2.0
/*
 * bus.c - buses, devices and drivers of the ddm binding core: their
 * registration, their lifetime and the walks over their lists.
 *
 * After the 2005 driver-model locking RFC by Patrick Mochel (bus klists,
 * driver_for_each_device()), with the lessons of its review applied; see
 * include/linux/ddm.h.  Binding itself lives in lib/ddm/dd.c.
 *
 * Devices and drivers get ddm objects (lib/ddm/object.c); their events
 * follow the hotplug split: emitted here, once the attributes exist.
 */

#include <linux/ddm.h>
#include <linux/bug.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>

/* --- device lists ------------------------------------------------------- */

static struct ddm_device *knode_bus_to_dev(struct klist_node *n)
{
	return container_of(n, struct ddm_device, knode_bus);
}

static struct ddm_device *knode_driver_to_dev(struct klist_node *n)
{
	return container_of(n, struct ddm_device, knode_driver);
}

/*
 * A device pins itself while it is on a device list, so a walk that
 * stands on it keeps it alive after ddm_device_unregister() (K5).
 */
static void ddm_klist_bus_get(struct klist_node *n)
{
	ddm_get_device(knode_bus_to_dev(n));
}

static void ddm_klist_bus_put(struct klist_node *n)
{
	ddm_put_device(knode_bus_to_dev(n));
}

static void ddm_klist_driver_get(struct klist_node *n)
{
	ddm_get_device(knode_driver_to_dev(n));
}

static void ddm_klist_driver_put(struct klist_node *n)
{
	ddm_put_device(knode_driver_to_dev(n));
}

/* --- buses -------------------------------------------------------------- */

/**
 * ddm_bus_register - register a bus
 * @bus: the bus, with @name and @match set.
 *
 * Return: 0, -EINVAL for a NULL @bus, -EBUSY if it is registered already
 * (or being registered or unregistered by another caller).
 */
int ddm_bus_register(struct ddm_bus *bus)
{
	if (WARN_ON(!bus))
		return -EINVAL;
	/*
	 * D13: claimed, as a driver is (D9): of two concurrent registers
	 * the second is reported and does not initialise the lists again
	 * under the first.
	 */
	if (WARN(atomic_cmpxchg(&bus->state, DDM_BUS_UNREGISTERED,
				DDM_BUS_REGISTERING) != DDM_BUS_UNREGISTERED,
		 "ddm: bus %s registered twice\n", bus->name))
		return -EBUSY;
	klist_init(&bus->klist_devices, ddm_klist_bus_get, ddm_klist_bus_put);
	klist_init(&bus->klist_drivers, NULL, NULL);
	/* Pairs with the atomic_read_acquire() in ddm_bus_is_registered(). */
	atomic_set_release(&bus->state, DDM_BUS_REGISTERED);
	return 0;
}
EXPORT_SYMBOL_GPL(ddm_bus_register);

static int ddm_bus_found(struct ddm_device *dev, void *data)
{
	return 1;
}

static int ddm_bus_found_drv(struct ddm_driver *drv, void *data)
{
	return 1;
}

/**
 * ddm_bus_unregister - unregister a bus
 * @bus: the bus
 *
 * Every device and driver must have left the bus, and none may be added
 * to it meanwhile (module exit after the last user went).  A bus that
 * still has some is reported and stays registered; so is one being
 * registered, and a second unregister is reported and does nothing (D13).
 */
void ddm_bus_unregister(struct ddm_bus *bus)
{
	int old;

	if (WARN_ON(!bus))
		return;
	/* D13: claimed from "registered" only; the loser touches nothing. */
	old = atomic_cmpxchg(&bus->state, DDM_BUS_REGISTERED, DDM_BUS_GOING);
	if (WARN(old == DDM_BUS_REGISTERING,
		 "ddm: bus %s unregistered while it registers\n", bus->name) ||
	    WARN(old != DDM_BUS_REGISTERED,
		 "ddm: bus %s is not registered\n", bus->name))
		return;
	if (WARN(ddm_bus_for_each_dev(bus, NULL, NULL, ddm_bus_found) ||
		 ddm_bus_for_each_drv(bus, NULL, NULL, ddm_bus_found_drv),
		 "ddm: bus %s unregistered with devices or drivers on it\n",
		 bus->name)) {
		atomic_set(&bus->state, DDM_BUS_REGISTERED);
		return;
	}
	atomic_set(&bus->state, DDM_BUS_UNREGISTERED);
}
EXPORT_SYMBOL_GPL(ddm_bus_unregister);

/* --- devices ------------------------------------------------------------ */

/*
 * What ddm_device_initialize() sets up: the caller's reference and the
 * device lock.
 */
static void ddm_device_init_fields(struct ddm_device *dev)
{
	kref_init(&dev->kref);
	mutex_init(&dev->mutex);
	/*
	 * D8: as 6.1's device_initialize().  Device locks nest, parent
	 * before child, to any depth (a controller's probe registers its
	 * children, whose probes take theirs): no class or subclass
	 * describes that, so lockdep does not validate the device lock.
	 */
	lockdep_set_novalidate_class(&dev->mutex);
}

/**
 * ddm_device_initialize - prepare a zeroed device for ddm_device_add()
 * @dev: the device
 *
 * The device holds one reference afterwards, dropped by ddm_put_device().
 * A driver set in @dev->driver after this is bound without a probe by
 * ddm_device_add(); if that bind fails, ddm_device_add() clears
 * @dev->driver and still succeeds (D6).
 */
void ddm_device_initialize(struct ddm_device *dev)
{
	if (WARN_ON(!dev))
		return;
	if (WARN(atomic_read(&dev->state) != DDM_DEV_INITIAL,
		 "ddm: device %s initialised after it was added\n", dev->name))
		return;
	ddm_device_init_fields(dev);
}
EXPORT_SYMBOL_GPL(ddm_device_initialize);

/*
 * D9: an add or a register claims the device first, atomically, so that
 * of two concurrent ones the second is reported and touches nothing, not
 * even the initialisation of a device the first one is adding.
 */
static bool ddm_device_claim(struct ddm_device *dev)
{
	return !WARN(atomic_cmpxchg(&dev->state, DDM_DEV_INITIAL,
				    DDM_DEV_ADDING) != DDM_DEV_INITIAL,
		     "ddm: device %s registered twice\n", dev->name);
}

/* Give @dev its object and attributes, before anyone is told of it. */
static int ddm_device_add_object(struct ddm_device *dev)
{
	struct ddm_object *obj;
	int ret;

	obj = ddm_object_alloc();
	if (!obj)
		return -ENOMEM;
	obj->devt = dev->devt;
	ret = ddm_object_add(obj, NULL, dev->name);
	if (ret)
		goto put;
	if (dev->devt) {
		ret = ddm_object_add_devt_attr(obj, dev->devt);
		if (ret) {
			ddm_object_del(obj);
			goto put;
		}
	}
	/*
	 * Read unlocked by ddm_class_device_create() for a `device` link:
	 * pairs with the READ_ONCE() in __ddm_class_device_create().
	 */
	WRITE_ONCE(dev->obj, obj);
	return 0;
put:
	ddm_object_put(obj);
	return ret;
}

/* Put a claimed device on its bus, announce it, then probe it. */
static int ddm_device_add_claimed(struct ddm_device *dev)
{
	struct ddm_bus *bus = dev->bus;
	int ret = -EINVAL;

	if (WARN(!bus || !ddm_bus_is_registered(bus),
		 "ddm: device %s added without a registered bus\n", dev->name))
		goto unclaim;
	if (WARN(!dev->release, "ddm: device %s has no release function\n",
		 dev->name))
		goto unclaim;
	if (WARN(!dev->name, "ddm: device added without a name\n"))
		goto unclaim;
	ret = ddm_device_add_object(dev);
	if (ret)
		goto unclaim;

	klist_add_tail(&dev->knode_bus, &bus->klist_devices);
	ddm_object_uevent(dev->obj, DDM_UEVENT_ADD);
	/*
	 * H2: ready to probe only now, as 6.1.192's ready_to_probe.  A
	 * driver that found the device on the bus list before this point
	 * was refused by ddm_really_probe(), which checks the state under
	 * the device lock; the attach below then finds that driver on its
	 * list, so no "bind" comes before the "add" and none is lost.
	 */
	ddm_device_lock(dev);
	atomic_set(&dev->state, DDM_DEV_ATTACHING);
	ddm_device_unlock(dev);
	ddm_device_attach(dev);
	/*
	 * D12: only an added device can be deleted, so an unregister while
	 * the attach above runs is reported and cannot release the device
	 * under it; pairs with the atomic_cmpxchg() in
	 * ddm_device_leave_bus().
	 */
	atomic_set_release(&dev->state, DDM_DEV_ADDED);
	return 0;
unclaim:
	/* Not added after all: it may be added again. */
	atomic_set(&dev->state, DDM_DEV_INITIAL);
	return ret;
}

/**
 * ddm_device_add - put an initialised device on its bus and probe it
 * @dev: the device, with @name, @bus and @release set.
 *
 * The device joins the bus list before it is probed: a driver that
 * registers meanwhile then finds it on the list, or is found by this
 * probe (D2).  Its "add" event comes after its `dev` attribute exists
 * (H1), and it is ready to probe only after that event, so no "bind"
 * comes before its "add" (H2).  Not finding a driver is not an error.
 * On error the caller still drops its reference with ddm_put_device().
 * Until it returns the device is being added: a delete or unregister
 * meanwhile is reported and does nothing (D12).
 *
 * Return: 0, -EINVAL for bad arguments, -EBUSY if @dev was added before
 * (or is being added by another caller), -ENOMEM.
 */
int ddm_device_add(struct ddm_device *dev)
{
	if (WARN_ON(!dev))
		return -EINVAL;
	if (!ddm_device_claim(dev))
		return -EBUSY;
	return ddm_device_add_claimed(dev);
}
EXPORT_SYMBOL_GPL(ddm_device_add);

/* Leave the bus; false (and a report) if @dev is not on one. */
static bool ddm_device_leave_bus(struct ddm_device *dev)
{
	int old;

	if (WARN_ON(!dev))
		return false;
	/*
	 * Marked deleted before the unbind: a probe that takes the device
	 * lock after this point refuses the device, so no driver can bind
	 * to it once the unbind below is done.  The atomic_read() in
	 * ddm_really_probe() pairs with this through the device lock, which
	 * ddm_device_release_driver() takes next.
	 */
	old = atomic_cmpxchg(&dev->state, DDM_DEV_ADDED, DDM_DEV_DELETED);
	/* D9, D12: claimed from "added" only; the loser touches nothing. */
	if (WARN(old == DDM_DEV_ADDING || old == DDM_DEV_ATTACHING,
		 "ddm: device %s deleted while it is being added\n",
		 dev->name) ||
	    WARN(old != DDM_DEV_ADDED,
		 "ddm: device %s deleted but not registered (deleted twice?)\n",
		 dev->name))
		return false;
	/* No wait: walks that stand on the node hold a reference (K5). */
	klist_del(&dev->knode_bus);
	ddm_device_release_driver(dev);
	/* As device_del(): the attribute goes, then the event, then all. */
	if (dev->devt)
		ddm_object_remove_attr(dev->obj, "dev");
	ddm_object_uevent(dev->obj, DDM_UEVENT_REMOVE);
	ddm_object_del(dev->obj);
	return true;
}

/**
 * ddm_device_del - take a device off its bus, unbinding it
 * @dev: the device
 *
 * The reference taken by ddm_device_initialize() is left to the caller.
 */
void ddm_device_del(struct ddm_device *dev)
{
	ddm_device_leave_bus(dev);
}
EXPORT_SYMBOL_GPL(ddm_device_del);

/**
 * ddm_device_register - initialise a zeroed device and add it to its bus
 * @dev: the device
 *
 * Return: as ddm_device_add().  On error, drop the reference with
 * ddm_put_device() (which calls @dev->release).
 */
int ddm_device_register(struct ddm_device *dev)
{
	if (WARN_ON(!dev))
		return -EINVAL;
	/* D9: claimed before initialising, which would reset a live device. */
	if (!ddm_device_claim(dev))
		return -EBUSY;
	ddm_device_init_fields(dev);
	return ddm_device_add_claimed(dev);
}
EXPORT_SYMBOL_GPL(ddm_device_register);

/**
 * ddm_device_unregister - delete a device and drop the caller's reference
 * @dev: the device
 *
 * A device that is not registered is reported and its reference is left
 * alone, so that a double unregister does not free it twice; so is one
 * whose add or register has not returned yet (D12).
 */
void ddm_device_unregister(struct ddm_device *dev)
{
	if (ddm_device_leave_bus(dev))
		ddm_put_device(dev);
}
EXPORT_SYMBOL_GPL(ddm_device_unregister);

/**
 * ddm_get_device - take a reference on a device
 * @dev: the device, or NULL
 *
 * Return: @dev.
 */
struct ddm_device *ddm_get_device(struct ddm_device *dev)
{
	if (dev)
		kref_get(&dev->kref);
	return dev;
}
EXPORT_SYMBOL_GPL(ddm_get_device);

static void ddm_device_release(struct kref *kref)
{
	struct ddm_device *dev = container_of(kref, struct ddm_device, kref);

	mutex_destroy(&dev->mutex);
	/* Links and queued events may keep the object; not the device. */
	ddm_object_put(dev->obj);
	dev->obj = NULL;
	if (dev->release)
		dev->release(dev);
	else
		WARN(1, "ddm: device %s has no release function, leaked\n",
		     dev->name);
}

/**
 * ddm_put_device - drop a reference on a device
 * @dev: the device, or NULL
 *
 * The last one calls @dev->release.  May sleep.
 */
void ddm_put_device(struct ddm_device *dev)
{
	if (dev)
		kref_put(&dev->kref, ddm_device_release);
}
EXPORT_SYMBOL_GPL(ddm_put_device);

/* --- drivers ------------------------------------------------------------ */

/**
 * ddm_driver_register - put a driver on its bus and bind it to devices
 * @drv: the driver, with @name and @bus set.
 *
 * The driver's "add" event is emitted here, not by its object's creation
 * (H1), and before it joins the bus list, so before anyone can find it
 * there and bind a device to it (H2).  It joins the list before it
 * probes the devices already there, for the same reason as in
 * ddm_device_add() (D2).
 *
 * The driver is "registering" until it has joined the bus and probed:
 * an unregister meanwhile is reported and does nothing (D11).
 *
 * Return: 0, -EINVAL for bad arguments, -EBUSY if @drv is registered
 * (or being registered or unregistered by another caller), -ENOMEM.
 */
int ddm_driver_register(struct ddm_driver *drv)
{
	struct ddm_object *obj;

	if (WARN_ON(!drv))
		return -EINVAL;
	if (WARN(!drv->bus || !ddm_bus_is_registered(drv->bus),
		 "ddm: driver %s registered without a registered bus\n",
		 drv->name))
		return -EINVAL;
	if (WARN(!drv->name, "ddm: driver registered without a name\n"))
		return -EINVAL;
	/* D9: of two concurrent registers, the second touches nothing. */
	if (WARN(atomic_cmpxchg(&drv->state, DDM_DRV_UNREGISTERED,
				DDM_DRV_REGISTERING) != DDM_DRV_UNREGISTERED,
		 "ddm: driver %s registered twice\n", drv->name))
		return -EBUSY;
	obj = ddm_object_create(NULL, drv->name);
	if (IS_ERR(obj)) {
		atomic_set(&drv->state, DDM_DRV_UNREGISTERED);
		return PTR_ERR(obj);
	}
	drv->obj = obj;

	klist_init(&drv->klist_devices, ddm_klist_driver_get,
		   ddm_klist_driver_put);
	/* H2: a "bind" names the driver: its "add" must come first. */
	ddm_object_uevent(obj, DDM_UEVENT_ADD);
	klist_add_tail(&drv->knode_bus, &drv->bus->klist_drivers);
	ddm_driver_attach(drv);
	/*
	 * D11: only a registered driver can be unregistered; pairs with
	 * the atomic_cmpxchg() in ddm_driver_unregister().
	 */
	atomic_set_release(&drv->state, DDM_DRV_REGISTERED);
	return 0;
}
EXPORT_SYMBOL_GPL(ddm_driver_register);

/**
 * ddm_driver_unregister - unbind a driver from its devices and remove it
 * @drv: the driver
 *
 * The driver leaves the bus list first and waits for walks standing on
 * it (a device probing it, say) to move on: after that no new device can
 * bind to it, and ddm_driver_detach() unbinds the ones that did.
 * Its "remove" event comes after the "unbind" events.  May sleep.  On
 * return nothing refers to @drv any more: the binds that could still
 * add a device to its list, a probe's or a preset driver's (D7), run
 * from walks that stand on its bus node, which klist_remove() waits for.
 * A second unregister, even one running at the same time, is reported
 * and does nothing (D9), and so is one while the driver still registers
 * (D11).
 */
void ddm_driver_unregister(struct ddm_driver *drv)
{
	int old;

	if (WARN_ON(!drv))
		return;
	/* D9, D11: claimed from "registered" only; the loser touches nothing. */
	old = atomic_cmpxchg(&drv->state, DDM_DRV_REGISTERED, DDM_DRV_GOING);
	if (WARN(old == DDM_DRV_REGISTERING,
		 "ddm: driver %s unregistered while it registers\n", drv->name) ||
	    WARN(old != DDM_DRV_REGISTERED,
		 "ddm: driver %s is not registered (unregistered twice?)\n",
		 drv->name))
		return;
	klist_remove(&drv->knode_bus);
	ddm_driver_detach(drv);
	/* The unbinds removed the `driver` links to it. */
	ddm_object_unregister(drv->obj);
	drv->obj = NULL;
	/* Only now may it be registered again. */
	atomic_set(&drv->state, DDM_DRV_UNREGISTERED);
}
EXPORT_SYMBOL_GPL(ddm_driver_unregister);

/* --- iterators ---------------------------------------------------------- */

/**
 * ddm_bus_for_each_dev - call a function for each device on a bus
 * @bus: the bus
 * @start: start after this device (NULL: at the first one)
 * @data: passed to @fn
 * @fn: called for each device; a non-zero return stops the walk
 *
 * @fn runs with no lock held and may sleep; the device it is given stays
 * valid until it returns, even if it is unregistered meanwhile.  Devices
 * added during the walk may or may not be seen; deleted ones are not
 * seen once deleted.
 *
 * Return: -EINVAL for a NULL @bus or @fn, else the value of the call of
 * @fn that stopped the walk, else 0.
 */
int ddm_bus_for_each_dev(struct ddm_bus *bus, struct ddm_device *start,
			 void *data, int (*fn)(struct ddm_device *, void *))
{
	struct klist_iter i;
	struct klist_node *n;
	int error = 0;

	/* D5: a NULL bus is -EINVAL, quietly, as in the RFC. */
	if (!bus || WARN_ON(!fn))
		return -EINVAL;
	klist_iter_init_node(&bus->klist_devices, &i,
			     start ? &start->knode_bus : NULL);
	/* Test error first: stepping on after a stop would pin for nothing. */
	while (!error && (n = klist_next(&i)))
		error = fn(knode_bus_to_dev(n), data);
	klist_iter_exit(&i);
	return error;
}
EXPORT_SYMBOL_GPL(ddm_bus_for_each_dev);

/**
 * ddm_bus_for_each_drv - call a function for each driver on a bus
 * @bus: the bus
 * @start: start after this driver (NULL: at the first one)
 * @data: passed to @fn
 * @fn: called for each driver; a non-zero return stops the walk
 *
 * @fn runs with no lock held and may sleep.  The driver it is given
 * cannot finish ddm_driver_unregister() until @fn returns, so @fn must
 * not unregister it.
 *
 * Return: as ddm_bus_for_each_dev().
 */
int ddm_bus_for_each_drv(struct ddm_bus *bus, struct ddm_driver *start,
			 void *data, int (*fn)(struct ddm_driver *, void *))
{
	struct klist_iter i;
	struct klist_node *n;
	int error = 0;

	/* D5: as ddm_bus_for_each_dev(). */
	if (!bus || WARN_ON(!fn))
		return -EINVAL;
	klist_iter_init_node(&bus->klist_drivers, &i,
			     start ? &start->knode_bus : NULL);
	while (!error && (n = klist_next(&i)))
		error = fn(container_of(n, struct ddm_driver, knode_bus), data);
	klist_iter_exit(&i);
	return error;
}
EXPORT_SYMBOL_GPL(ddm_bus_for_each_drv);

/**
 * ddm_driver_for_each_device - call a function for each device bound to
 *	a driver
 * @drv: the driver
 * @start: start after this device (NULL: at the first one)
 * @data: passed to @fn
 * @fn: called for each device; a non-zero return stops the walk
 *
 * @fn runs with no lock held and may sleep.  An unbind of the device @fn
 * is given waits, under the device lock, until @fn returns: so @fn must
 * neither unbind that device nor take its device lock (D1).
 *
 * Return: -EINVAL for a NULL @drv or @fn, else as ddm_bus_for_each_dev().
 */
int ddm_driver_for_each_device(struct ddm_driver *drv,
			       struct ddm_device *start, void *data,
			       int (*fn)(struct ddm_device *, void *))
{
	struct klist_iter i;
	struct klist_node *n;
	int error = 0;

	/* D5: likewise a NULL driver. */
	if (!drv || WARN_ON(!fn))
		return -EINVAL;
	klist_iter_init_node(&drv->klist_devices, &i,
			     start ? &start->knode_driver : NULL);
	while (!error && (n = klist_next(&i)))
		error = fn(knode_driver_to_dev(n), data);
	klist_iter_exit(&i);
	return error;
}
EXPORT_SYMBOL_GPL(ddm_driver_for_each_device);
