// SPDX-License-Identifier: GPL-2.0
/*
 * dd.c - the device/driver interactions of the ddm binding core:
 * binding, probing, attaching, unbinding, and the calls into a bound
 * driver (suspend, resume, shutdown).
 *
 * After drivers/base/dd.c of the 2005 driver-model locking RFC by
 * Patrick Mochel.  The rules its review arrived at:
 *  - dev->driver is read and changed only under the device lock, and an
 *    unbind re-checks it there (D3);
 *  - a probe of a bound device fails with -EBUSY (D4);
 *  - driver_detach never unbinds a device its own walk stands on (D1);
 *  - a preset driver whose bind fails does not stay in dev->driver (D6),
 *    and is pinned by a walk of the bus's drivers for the bind (D7).
 * And for listeners: a device's `driver` link exists before its "bind"
 * event and is removed after its "unbind" event.
 */

#include <linux/ddm.h>
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/printk.h>

static bool ddm_match(struct ddm_driver *drv, struct ddm_device *dev)
{
	struct ddm_bus *bus = drv->bus;

	if (dev->bus != bus)
		return false;
	return !bus->match || bus->match(dev, drv);
}

/*
 * Put a device whose dev->driver is set on that driver's list and
 * announce it, its `driver` link first (as H1: what a listener looks up
 * exists before the event).  Fails only for the link.
 */
static int ddm_driver_bound(struct ddm_device *dev)
{
	int ret;

	ret = ddm_object_add_link(dev->obj, "driver", dev->driver->obj);
	if (ret)
		return ret;
	pr_debug("ddm: bound device %s to driver %s\n", dev->name,
		 dev->driver->name);
	dev->bound_driver = dev->driver;
	klist_add_tail(&dev->knode_driver, &dev->driver->klist_devices);
	ddm_object_uevent(dev->obj, DDM_UEVENT_BIND);
	return 0;
}

/*
 * D9: @dev->driver of a bound device is the driver it is bound to.  A
 * caller that changed it (to bind another driver) is reported and the
 * change undone, or the unbind would call the wrong ->remove and the
 * real driver's detach would never see the device leave its list.
 * Called with the device lock held; true if it was changed.
 */
static bool ddm_driver_changed_under_bound(struct ddm_device *dev)
{
	if (!ddm_device_is_bound(dev) || dev->driver == dev->bound_driver)
		return false;
	WARN(1, "ddm: device %s is bound to %s: driver %s not bound\n",
	     dev->name, dev->bound_driver->name,
	     dev->driver ? dev->driver->name : "(none)");
	dev->driver = dev->bound_driver;
	return true;
}

/*
 * Whether @dev may be probed or bound: 0 if so, -EPROBE_DEFER while its
 * add has not announced it yet (H2: its add probes it after), -ENODEV
 * if it is not added or being deleted.  Called with the device lock
 * held, which orders the read after the state changes: the change to
 * DDM_DEV_ATTACHING is made under it, and ddm_device_leave_bus() takes
 * it after marking the device deleted.
 */
static int ddm_device_probe_ready(struct ddm_device *dev)
{
	switch (atomic_read(&dev->state)) {
	case DDM_DEV_ATTACHING:
	case DDM_DEV_ADDED:
		return 0;
	case DDM_DEV_ADDING:
		return -EPROBE_DEFER;
	default:
		return -ENODEV;
	}
}

/**
 * ddm_device_bind_driver - bind a device to the driver set in dev->driver
 * @dev: the device
 *
 * For a driver that claims a device without probing it (as a USB driver
 * claims a second interface): set @dev->driver, then call this, both
 * under ddm_device_lock().  ->probe is not called; ->remove will be.
 * The caller keeps @dev->driver registered meanwhile, as a driver does
 * from its own ->probe (D7).
 *
 * Return: 0, -EINVAL if @dev->driver is not set or @dev is not
 * registered, -EPROBE_DEFER if the add of @dev has not announced it
 * yet, -EBUSY if @dev is bound already (a @dev->driver changed to
 * another driver is then put back, D9), -ENOMEM.
 */
int ddm_device_bind_driver(struct ddm_device *dev)
{
	int ret;

	if (WARN_ON(!dev || !dev->driver))
		return -EINVAL;
	lockdep_assert_held(&dev->mutex);
	ret = ddm_device_probe_ready(dev);
	if (ret == -EPROBE_DEFER)
		return ret;
	if (WARN(ret, "ddm: binding device %s that is not registered\n",
		 dev->name))
		return -EINVAL;
	/* D4: one driver per device, and a linked node is never re-added. */
	if (ddm_driver_changed_under_bound(dev) ||
	    WARN(ddm_device_is_bound(dev), "ddm: device %s already bound\n",
		 dev->name))
		return -EBUSY;
	if (WARN(!klist_node_attached(&dev->driver->knode_bus),
		 "ddm: binding device %s to unregistered driver %s\n",
		 dev->name, dev->driver->name))
		return -EINVAL;
	return ddm_driver_bound(dev);
}
EXPORT_SYMBOL_GPL(ddm_device_bind_driver);

/*
 * Probe @dev with @drv, which matches it.  Called with the device lock
 * held, which is what makes the checks below hold until the bind.
 */
static int ddm_really_probe(struct ddm_driver *drv, struct ddm_device *dev)
{
	int ret;

	lockdep_assert_held(&dev->mutex);
	/* Not announced yet (H2), or being deleted. */
	ret = ddm_device_probe_ready(dev);
	if (ret)
		return ret;
	/* D4: one driver per device, and a linked node is never re-added. */
	if (dev->driver)
		return -EBUSY;

	dev->driver = drv;
	if (drv->probe)
		ret = drv->probe(dev);
	if (!ret) {
		ret = ddm_driver_bound(dev);
		/* No `driver` link, no bind: undo the probe. */
		if (ret && drv->remove)
			drv->remove(dev);
	}
	if (ret) {
		dev->driver = NULL;
		dev->driver_data = NULL;
		if (ret != -ENODEV && ret != -ENXIO)
			pr_warn("%s: probe of %s failed with error %d\n",
				drv->name, dev->name, ret);
		return ret;
	}
	return 0;
}

/**
 * ddm_driver_probe_device - try to bind a driver to a device
 * @drv: the driver, registered
 * @dev: the device, registered
 *
 * Calls the bus's match, then @drv->probe under the device lock.  The
 * caller keeps @drv registered meanwhile.
 *
 * Return: 0 if bound; -ENODEV if @drv does not match @dev or @dev is
 * being deleted; -EPROBE_DEFER if the add of @dev has not announced it
 * yet (that add probes it); -EBUSY if @dev is bound already (to any driver); else
 * the error of @drv->probe, which leaves @dev unbound.
 */
int ddm_driver_probe_device(struct ddm_driver *drv, struct ddm_device *dev)
{
	int ret;

	if (WARN_ON(!drv || !dev))
		return -EINVAL;
	if (WARN(!klist_node_attached(&drv->knode_bus),
		 "ddm: probing device %s with unregistered driver %s\n",
		 dev->name, drv->name))
		return -EINVAL;
	if (!ddm_match(drv, dev))
		return -ENODEV;
	ddm_device_lock(dev);
	ret = ddm_really_probe(drv, dev);
	ddm_device_unlock(dev);
	return ret;
}
EXPORT_SYMBOL_GPL(ddm_driver_probe_device);

static int ddm_device_bind_preset_drv(struct ddm_driver *drv, void *data)
{
	struct ddm_device *dev = data;
	int ret;

	if (drv != dev->driver)
		return 0;
	ret = ddm_device_bind_driver(dev);
	return ret ? ret : 1;
}

/*
 * Bind @dev to the driver preset in dev->driver, if it is registered on
 * @dev's bus.  Called with the device lock held.
 *
 * D7: the bind runs from a walk of the bus's drivers that stands on the
 * driver's node, as a probe does, which pins it: ddm_driver_unregister()
 * takes the node off with klist_remove(), which waits for this walk to
 * step off.  So either the walk no longer finds the driver, or the
 * device is on the driver's list before ddm_driver_detach() walks it.
 * A check of klist_node_attached() alone pins nothing: an unregister
 * could run to its end between the check and the bind.
 */
static int ddm_device_bind_preset(struct ddm_device *dev)
{
	int ret;

	lockdep_assert_held(&dev->mutex);
	ret = ddm_bus_for_each_drv(dev->bus, NULL, dev,
				   ddm_device_bind_preset_drv);
	if (ret == 1)
		return 0;
	return ret ? ret : -ENODEV;
}

static int ddm_device_attach_driver(struct ddm_driver *drv, void *data)
{
	struct ddm_device *dev = data;

	if (!ddm_match(drv, dev))
		return 0;
	/* Stop at the first driver that binds; a failure tries the next. */
	return ddm_really_probe(drv, dev) == 0;
}

/**
 * ddm_device_attach - try to bind a device to a driver on its bus
 * @dev: the device
 *
 * Walks the bus's drivers in registration order under the device lock
 * and binds to the first that matches and probes successfully.  If
 * @dev->driver was set beforehand, binds to it without probing, pinning
 * it as a probe pins its driver (D7); if that fails (the driver is not
 * registered on @dev's bus, or out of memory), clears
 * @dev->driver, as 6.1's __device_attach() does, and tries no other
 * driver (D6).
 *
 * Return: 1 if @dev is bound, 0 if no driver took it, -ENODEV if @dev is
 * not registered, -EPROBE_DEFER if its add has not announced it yet.
 */
int ddm_device_attach(struct ddm_device *dev)
{
	int ret;

	if (WARN_ON(!dev))
		return -EINVAL;
	ddm_device_lock(dev);
	ret = ddm_device_probe_ready(dev);
	if (ret) {
		/* Its add attaches it once it is announced. */
	} else if (dev->driver) {
		ddm_driver_changed_under_bound(dev);
		ret = 1;
		if (!ddm_device_is_bound(dev)) {
			ret = ddm_device_bind_preset(dev);
			if (ret) {
				/*
				 * D6: a driver that is not bound is not left
				 * behind, or every later probe is -EBUSY and
				 * the unbind calls its ->remove.
				 */
				pr_warn("ddm: device %s left unbound: bind of its preset driver failed with error %d\n",
					dev->name, ret);
				dev->driver = NULL;
				dev->driver_data = NULL;
			}
			ret = !ret;
		}
	} else {
		ret = ddm_bus_for_each_drv(dev->bus, NULL, dev,
					   ddm_device_attach_driver);
	}
	ddm_device_unlock(dev);
	return ret;
}
EXPORT_SYMBOL_GPL(ddm_device_attach);

static int ddm_driver_attach_device(struct ddm_device *dev, void *data)
{
	struct ddm_driver *drv = data;

	/* Match without the lock, as the bus's match only reads ids. */
	if (!ddm_match(drv, dev))
		return 0;
	ddm_device_lock(dev);
	/* D4: -EBUSY for devices bound already is expected here. */
	ddm_really_probe(drv, dev);
	ddm_device_unlock(dev);
	return 0;
}

/**
 * ddm_driver_attach - try to bind a driver to the devices on its bus
 * @drv: the driver, registered
 *
 * Probes every matching device that is not bound.  A device that no
 * driver wants is not an error.
 *
 * Return: 0, or -EINVAL for a NULL @drv.
 */
int ddm_driver_attach(struct ddm_driver *drv)
{
	if (WARN_ON(!drv))
		return -EINVAL;
	return ddm_bus_for_each_dev(drv->bus, NULL, drv,
				    ddm_driver_attach_device);
}
EXPORT_SYMBOL_GPL(ddm_driver_attach);

/*
 * Unbind @dev if it is bound to @drv (NULL: to any driver).  Called with
 * the device lock held.
 */
static void ddm_release_driver_locked(struct ddm_device *dev,
				      struct ddm_driver *drv)
{
	lockdep_assert_held(&dev->mutex);
	ddm_driver_changed_under_bound(dev);
	/* D3: whoever got the lock first may have unbound it already. */
	if (!dev->driver || (drv && dev->driver != drv))
		return;
	drv = dev->driver;
	/*
	 * Off the driver's list first, so no walk of it hands out a device
	 * whose ->remove has run.  This waits for walks standing on the
	 * node, which is why such a walk must not take this lock.
	 */
	klist_remove(&dev->knode_driver);
	if (drv->remove)
		drv->remove(dev);
	dev->driver = NULL;
	dev->driver_data = NULL;
	dev->bound_driver = NULL;
	/* A listener reacting to "unbind" still finds which driver it was. */
	ddm_object_uevent(dev->obj, DDM_UEVENT_UNBIND);
	ddm_object_remove_link(dev->obj, "driver");
}

/**
 * ddm_device_release_driver - unbind a device from its driver
 * @dev: the device; the caller holds a reference
 *
 * Calls the driver's ->remove under the device lock.  Nothing happens if
 * @dev is not bound, also when a concurrent unbind got there first.  Must
 * not be called from the device's own driver callbacks.  May sleep.
 */
void ddm_device_release_driver(struct ddm_device *dev)
{
	if (WARN_ON(!dev))
		return;
	ddm_device_lock(dev);
	ddm_release_driver_locked(dev, NULL);
	ddm_device_unlock(dev);
}
EXPORT_SYMBOL_GPL(ddm_device_release_driver);

/**
 * ddm_driver_detach - unbind a driver from every device bound to it
 * @drv: the driver
 *
 * Does not walk the list while unbinding: the unbind waits for walks
 * standing on the device, its own included (D1).  Instead it takes the
 * last bound device, pins it and steps off the list, then unbinds it
 * under its lock if it is still bound to @drv; until the list is empty.
 * Devices bound meanwhile by ddm_driver_probe_device() are unbound too;
 * call it once @drv has left its bus, so that this ends.  May sleep.
 */
void ddm_driver_detach(struct ddm_driver *drv)
{
	struct ddm_device *dev;
	struct klist_iter i;
	struct klist_node *n;

	if (WARN_ON(!drv))
		return;
	for (;;) {
		klist_iter_init(&drv->klist_devices, &i);
		n = klist_prev(&i);
		dev = n ? container_of(n, struct ddm_device, knode_driver) :
			  NULL;
		ddm_get_device(dev);
		klist_iter_exit(&i);
		if (!dev)
			break;
		ddm_device_lock(dev);
		ddm_release_driver_locked(dev, drv);
		ddm_device_unlock(dev);
		ddm_put_device(dev);
	}
}
EXPORT_SYMBOL_GPL(ddm_driver_detach);

/* --- calls into the bound driver ----------------------------------------- */

/**
 * ddm_device_suspend - suspend a device through its driver
 * @dev: the device
 *
 * Calls ->suspend of the bound driver, if any, under the device lock: it
 * never runs alongside ->probe or ->remove.
 *
 * Return: 0 if unbound or the driver has no ->suspend, else its result.
 */
int ddm_device_suspend(struct ddm_device *dev)
{
	int ret = 0;

	if (WARN_ON(!dev))
		return -EINVAL;
	ddm_device_lock(dev);
	if (dev->driver && dev->driver->suspend)
		ret = dev->driver->suspend(dev);
	ddm_device_unlock(dev);
	return ret;
}
EXPORT_SYMBOL_GPL(ddm_device_suspend);

/**
 * ddm_device_resume - resume a device through its driver
 * @dev: the device
 *
 * As ddm_device_suspend(), with ->resume.
 *
 * Return: 0 if unbound or the driver has no ->resume, else its result.
 */
int ddm_device_resume(struct ddm_device *dev)
{
	int ret = 0;

	if (WARN_ON(!dev))
		return -EINVAL;
	ddm_device_lock(dev);
	if (dev->driver && dev->driver->resume)
		ret = dev->driver->resume(dev);
	ddm_device_unlock(dev);
	return ret;
}
EXPORT_SYMBOL_GPL(ddm_device_resume);

/**
 * ddm_device_shutdown - shut a device down through its driver
 * @dev: the device
 *
 * Calls ->shutdown of the bound driver, if any, under the device lock.
 */
void ddm_device_shutdown(struct ddm_device *dev)
{
	if (WARN_ON(!dev))
		return;
	ddm_device_lock(dev);
	if (dev->driver && dev->driver->shutdown)
		dev->driver->shutdown(dev);
	ddm_device_unlock(dev);
}
EXPORT_SYMBOL_GPL(ddm_device_shutdown);

static int ddm_shutdown_one(struct ddm_device *dev, void *data)
{
	ddm_device_shutdown(dev);
	return 0;
}

/**
 * ddm_bus_shutdown - shut down every device on a bus
 * @bus: the bus
 *
 * ddm's device_shutdown(): ddm_device_shutdown() for each device, in the
 * order they were added.  Devices stay bound.
 *
 * Return: 0, or -EINVAL for a NULL @bus.
 */
int ddm_bus_shutdown(struct ddm_bus *bus)
{
	return ddm_bus_for_each_dev(bus, NULL, NULL, ddm_shutdown_one);
}
EXPORT_SYMBOL_GPL(ddm_bus_shutdown);
