/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ddm.h - a driver-binding core on klists.
 *
 * ddm stands for "device/driver model": the driver-model core of the
 * 2005 driver-model locking work, kept apart from the kernel's own.
 * lib/ddm/dd.c is that work's drivers/base/dd.c (binding), lib/ddm/bus.c
 * its bus, device and driver registration.
 *
 * The bus/device/driver binding of the 2005 driver-model locking work
 * (drivers/base/dd.c and the bus klists), with what the kernel learned
 * since applied.  Every name carries a ddm_ prefix so that it links in a
 * kernel next to the real driver core; it does not hook into it.
 *
 * Locking, in short:
 *  - the bus and driver lists are klists: walks drop the list lock
 *    before calling back, and a walk pins the node it stands on;
 *  - a device on its bus list is pinned by the list (get/put hooks), so
 *    a walk never sees a device freed under it;
 *  - dev->mutex (ddm_device_lock()) serialises every call from the core
 *    into the device's driver and every change of dev->driver.
 *
 * Devices and drivers have objects (include/linux/ddm_object.h) that
 * listeners see: a device's "add" event comes after its `dev` attribute
 * exists, "bind" after its `driver` link exists, "unbind" before that
 * link goes, "remove" after the attribute has gone.
 */
#ifndef _LINUX_DDM_H
#define _LINUX_DDM_H

#include <linux/atomic.h>
#include <linux/ddm_object.h>
#include <linux/klist.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/types.h>

struct ddm_device;
struct ddm_driver;

/**
 * struct ddm_bus - a bus: the devices on it and the drivers for them
 * @name: name of the bus, for messages.
 * @match: does @drv handle @dev?  Non-zero for yes.  Called without the
 *	device lock, so it must only look at identity fields.  Without a
 *	match callback every driver matches every device.
 * @klist_devices: devices on the bus; the list pins each device.
 * @klist_drivers: drivers on the bus.
 * @state: enum ddm_bus_state, claimed by a register or unregister (D13).
 */
struct ddm_bus {
	const char		*name;
	int			(*match)(struct ddm_device *dev,
					 struct ddm_driver *drv);
	struct klist		klist_devices;
	struct klist		klist_drivers;
	atomic_t		state;
};

/**
 * struct ddm_device - a device
 * @name: name of the device, for messages and its object.  Required.
 * @bus: the bus the device sits on; set before ddm_device_add().
 * @devt: device number, or 0; set before ddm_device_add() to give the
 *	device a `dev` attribute.
 * @release: frees the device once its last reference is gone.  Required.
 * @driver: the bound driver, or NULL.  Changed only under @mutex.
 * @bound_driver: the driver whose list @knode_driver is on, or NULL;
 *	core only, so that a @driver changed under a bound device is
 *	reported and put back (D9).
 * @driver_data: for the bound driver (ddm_set_drvdata()).
 * @kref: reference count; see ddm_get_device() and ddm_put_device().
 * @mutex: the device lock.  A mutex, as 6.1's device_lock(), rather than
 *	the RFC's semaphore: it has an owner, so lockdep checks its order
 *	and the debug code catches unlocks from the wrong task.
 * @state: registration state (enum ddm_device_state); core only.
 * @knode_bus: node on the bus's device list.
 * @knode_driver: node on the bound driver's device list.
 * @obj: the device's object, from ddm_device_add() until the device is
 *	released; events, links and listeners refer to it, not to the
 *	device, so they never pin the device itself.
 *
 * Zero the structure, set @name, @bus and @release, then call
 * ddm_device_register() (or ddm_device_initialize() and ddm_device_add()).
 */
struct ddm_device {
	const char		*name;
	struct ddm_bus		*bus;
	ddm_devt_t		devt;
	void			(*release)(struct ddm_device *dev);
	struct ddm_driver	*driver;
	void			*driver_data;

	struct ddm_driver	*bound_driver;
	struct kref		kref;
	struct mutex		mutex;	/* the device lock */
	atomic_t		state;
	struct klist_node	knode_bus;
	struct klist_node	knode_driver;
	struct ddm_object	*obj;
};

/*
 * Registration states of a device: only ever move forwards, but for an
 * add that fails, which goes back to DDM_DEV_INITIAL.
 */
enum ddm_device_state {
	DDM_DEV_INITIAL = 0,	/* zeroed or initialised, not added */
	DDM_DEV_ADDING,		/* claimed by an add or register (D9) */
	DDM_DEV_ATTACHING,	/* announced, ready to probe (H2), being attached */
	DDM_DEV_ADDED,		/* its add returned: may be deleted (D12) */
	DDM_DEV_DELETED,	/* ddm_device_del() has run */
};

/* Registration states of a bus (D13), as a driver's. */
enum ddm_bus_state {
	DDM_BUS_UNREGISTERED = 0,	/* zeroed, or unregistered: may register */
	DDM_BUS_REGISTERING,		/* ddm_bus_register() under way */
	DDM_BUS_REGISTERED,		/* between register and unregister */
	DDM_BUS_GOING,			/* ddm_bus_unregister() under way */
};

/* Registration states of a driver (D9, D11). */
enum ddm_driver_state {
	DDM_DRV_UNREGISTERED = 0,	/* zeroed, or unregistered: may register */
	DDM_DRV_REGISTERING,		/* ddm_driver_register() under way */
	DDM_DRV_REGISTERED,		/* between register and unregister */
	DDM_DRV_GOING,			/* ddm_driver_unregister() under way */
};

/**
 * struct ddm_driver - a driver
 * @name: name of the driver, for messages and its object.  Required.
 * @bus: the bus the driver is for; set before ddm_driver_register().
 * @probe: bind to @dev.  0 binds; -ENODEV and -ENXIO say "not mine"
 *	quietly; any other error is reported and leaves @dev unbound.
 * @remove: unbind from @dev.
 * @shutdown: quiesce @dev at shutdown.
 * @suspend: put @dev to sleep.
 * @resume: wake @dev up.
 * @state: registration state (enum ddm_driver_state); core only.
 * @klist_devices: the devices bound to the driver.
 * @knode_bus: node on the bus's driver list.
 * @obj: the driver's object while it is registered: the target of the
 *	`driver` links of the devices bound to it.
 *
 * Every callback runs with the device lock held: a driver never sees
 * two of its callbacks run at once for one device.
 */
struct ddm_driver {
	const char		*name;
	struct ddm_bus		*bus;
	int			(*probe)(struct ddm_device *dev);
	void			(*remove)(struct ddm_device *dev);
	void			(*shutdown)(struct ddm_device *dev);
	int			(*suspend)(struct ddm_device *dev);
	int			(*resume)(struct ddm_device *dev);

	atomic_t		state;
	struct klist		klist_devices;
	struct klist_node	knode_bus;
	struct ddm_object	*obj;
};

/* --- buses (lib/ddm/bus.c) ---------------------------------------------- */

int ddm_bus_register(struct ddm_bus *bus);
void ddm_bus_unregister(struct ddm_bus *bus);

/* --- devices (lib/ddm/bus.c) -------------------------------------------- */

void ddm_device_initialize(struct ddm_device *dev);
int ddm_device_add(struct ddm_device *dev);
void ddm_device_del(struct ddm_device *dev);
int ddm_device_register(struct ddm_device *dev);
void ddm_device_unregister(struct ddm_device *dev);
struct ddm_device *ddm_get_device(struct ddm_device *dev);
void ddm_put_device(struct ddm_device *dev);

/* --- drivers (lib/ddm/bus.c) -------------------------------------------- */

int ddm_driver_register(struct ddm_driver *drv);
void ddm_driver_unregister(struct ddm_driver *drv);

/* --- iterators (lib/ddm/bus.c) ------------------------------------------ */

int ddm_bus_for_each_dev(struct ddm_bus *bus, struct ddm_device *start,
			 void *data, int (*fn)(struct ddm_device *, void *));
int ddm_bus_for_each_drv(struct ddm_bus *bus, struct ddm_driver *start,
			 void *data, int (*fn)(struct ddm_driver *, void *));
int ddm_driver_for_each_device(struct ddm_driver *drv,
			       struct ddm_device *start, void *data,
			       int (*fn)(struct ddm_device *, void *));

/* --- binding (lib/ddm/dd.c) --------------------------------------------- */

int ddm_device_bind_driver(struct ddm_device *dev);
int ddm_driver_probe_device(struct ddm_driver *drv, struct ddm_device *dev);
int ddm_device_attach(struct ddm_device *dev);
int ddm_driver_attach(struct ddm_driver *drv);
void ddm_device_release_driver(struct ddm_device *dev);
void ddm_driver_detach(struct ddm_driver *drv);

/* --- calls into the bound driver (lib/ddm/dd.c) ------------------------- */

int ddm_device_suspend(struct ddm_device *dev);
int ddm_device_resume(struct ddm_device *dev);
void ddm_device_shutdown(struct ddm_device *dev);
int ddm_bus_shutdown(struct ddm_bus *bus);

/* --- helpers ------------------------------------------------------------ */

/**
 * ddm_device_lock - take the device lock
 * @dev: the device
 *
 * Held by the core around every driver callback.  Needed by callers of
 * ddm_device_bind_driver().  May sleep.
 */
static inline void ddm_device_lock(struct ddm_device *dev)
{
	mutex_lock(&dev->mutex);
}

/**
 * ddm_device_unlock - release the device lock
 * @dev: the device
 */
static inline void ddm_device_unlock(struct ddm_device *dev)
{
	mutex_unlock(&dev->mutex);
}

/* Between ddm_bus_register() and ddm_bus_unregister(). */
static inline bool ddm_bus_is_registered(struct ddm_bus *bus)
{
	/* Pairs with the atomic_set_release() in ddm_bus_register(). */
	return atomic_read_acquire(&bus->state) == DDM_BUS_REGISTERED;
}

/**
 * ddm_device_is_bound - is a driver bound to the device?
 * @dev: the device
 *
 * Stable only with the device lock held.
 *
 * Return: true from the end of a successful probe until the unbind
 * starts.
 */
static inline bool ddm_device_is_bound(struct ddm_device *dev)
{
	return klist_node_attached(&dev->knode_driver);
}

/**
 * ddm_get_drvdata - the bound driver's data of a device
 * @dev: the device
 *
 * Return: what the driver stored with ddm_set_drvdata(); NULL after an
 * unbind or a failed probe.
 */
static inline void *ddm_get_drvdata(struct ddm_device *dev)
{
	return dev->driver_data;
}

/**
 * ddm_set_drvdata - store the bound driver's data in a device
 * @dev: the device
 * @data: the data
 */
static inline void ddm_set_drvdata(struct ddm_device *dev, void *data)
{
	dev->driver_data = data;
}

#endif /* _LINUX_DDM_H */
