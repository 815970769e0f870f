// SPDX-License-Identifier: GPL-2.0
/*
 * ddm scenarios for the explorer: driver unregister against device
 * unregister, driver register against device add, a probe that sleeps
 * or fails, bind/unbind against suspend/resume, a driver preset on a
 * device being added while the driver goes, a NULL bus, a listener
 * unsubscribing with events queued, class devices made and destroyed by
 * number.  Devices and drivers are kmalloc()ed and freed at once when
 * released or unregistered, so the guarded allocator sees a late use.
 *
 * The defects these find (tests/defects/ddm/, hotplug/): D1-D7, H1; see
 * docs/explore.md.
 */
#include <linux/atomic.h>
#include <linux/ddm.h>
#include <linux/ddm_class.h>
#include <linux/ddm_object.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/slab.h>
#include <shim/shim.h>

#include "explore-scenarios.h"

struct dctx;

struct ddrv {
	struct ddm_driver drv;
	struct dctx *c;
	unsigned long mask;	/* ids of the devices it matches */
	int fail_id;		/* its probe fails for this id */
	bool sleeps;		/* its probe sleeps */
	atomic_t probes, removes;
};

struct ddev {
	struct ddm_device dev;
	struct dctx *c;
	int id;
	char name[16];
};

struct dctx {
	struct ddm_bus bus;
	struct ddrv *drv[2];
	struct ddev *dev[2];
	atomic_t released, unlocked, unbound_removes, probes, removes;
	struct ddm_listener l;
	struct ddm_class *cls;
	int created[2];
	int unregistering;	/* the device's unregister has begun */
};

static struct ddrv *to_ddrv(struct ddm_driver *drv)
{
	return container_of(drv, struct ddrv, drv);
}

static struct ddev *to_ddev(struct ddm_device *dev)
{
	return container_of(dev, struct ddev, dev);
}

static int d_match(struct ddm_device *dev, struct ddm_driver *drv)
{
	return !!(READ_ONCE(to_ddrv(drv)->mask) & (1UL << to_ddev(dev)->id));
}

static void d_locked(struct ddm_device *dev)
{
	if (!mutex_is_locked(&dev->mutex))
		atomic_inc(&to_ddev(dev)->c->unlocked);
}

static int d_probe(struct ddm_device *dev)
{
	struct ddrv *d = to_ddrv(dev->driver);

	d_locked(dev);
	atomic_inc(&d->probes);
	atomic_inc(&d->c->probes);
	if (d->sleeps)
		msleep(5);
	return to_ddev(dev)->id == d->fail_id ? -ENODEV : 0;
}

static void d_remove(struct ddm_device *dev)
{
	struct ddev *dd = to_ddev(dev);

	d_locked(dev);
	atomic_inc(&dd->c->removes);
	if (!dev->driver) {
		atomic_inc(&dd->c->unbound_removes);
		return;
	}
	atomic_inc(&to_ddrv(dev->driver)->removes);
}

static int d_suspend(struct ddm_device *dev)
{
	d_locked(dev);
	return 0;
}

static int d_resume(struct ddm_device *dev)
{
	d_locked(dev);
	return 0;
}

static void d_release(struct ddm_device *dev)
{
	struct ddev *dd = to_ddev(dev);

	atomic_inc(&dd->c->released);
	kfree(dd);
}

static struct dctx *dctx_new(void)
{
	struct dctx *c = kzalloc(sizeof(*c), GFP_KERNEL);

	c->bus.name = "ex-bus";
	c->bus.match = d_match;
	ddm_bus_register(&c->bus);
	return c;
}

static struct ddrv *drv_new(struct dctx *c, const char *name, unsigned long mask)
{
	struct ddrv *d = kzalloc(sizeof(*d), GFP_KERNEL);

	d->c = c;
	d->drv.name = name;
	d->drv.bus = &c->bus;
	d->drv.probe = d_probe;
	d->drv.remove = d_remove;
	d->drv.suspend = d_suspend;
	d->drv.resume = d_resume;
	d->mask = mask;
	d->fail_id = -1;
	return d;
}

static struct ddev *dev_new(struct dctx *c, int id)
{
	struct ddev *d = kzalloc(sizeof(*d), GFP_KERNEL);

	d->c = c;
	d->id = id;
	snprintf(d->name, sizeof(d->name), "ex-dev%d", id);
	d->dev.name = d->name;
	d->dev.bus = &c->bus;
	d->dev.release = d_release;
	return d;
}

/* Nothing called unlocked, nothing removed unbound, every probe paired. */
static void check_common(struct dctx *c, int released)
{
	SHIM_EXPLORE_CHECK(atomic_read(&c->unlocked) == 0,
			   "%d driver calls without the device lock",
			   atomic_read(&c->unlocked));
	SHIM_EXPLORE_CHECK(atomic_read(&c->unbound_removes) == 0,
			   "->remove called on an unbound device");
	SHIM_EXPLORE_CHECK(atomic_read(&c->released) == released,
			   "%d devices released, wanted %d",
			   atomic_read(&c->released), released);
}

static void dctx_free(struct dctx *c)
{
	int i;

	ddm_bus_unregister(&c->bus);
	for (i = 0; i < 2; i++)
		kfree(c->drv[i]);
	kfree(c);
}

/* A body that makes one call on the scenario's objects. */
#define DDM_BODY(fn, call)		\
static void fn(void *ctx)		\
{					\
	struct dctx *c = ctx;		\
					\
	call;				\
}

/* --- driver unregister vs device unregister (D1, D3) --------------------- */

static void *setup_bound(void)
{
	struct dctx *c = dctx_new();

	c->drv[0] = drv_new(c, "ex-a", 0x3);
	ddm_driver_register(&c->drv[0]->drv);
	c->dev[0] = dev_new(c, 0);
	ddm_device_register(&c->dev[0]->dev);
	c->dev[1] = dev_new(c, 1);
	ddm_device_register(&c->dev[1]->dev);
	return c;
}

DDM_BODY(drv_unreg, ddm_driver_unregister(&c->drv[0]->drv))

DDM_BODY(dev0_unreg, ddm_device_unregister(&c->dev[0]->dev))

static void check_unbound_all(void *ctx)
{
	struct dctx *c = ctx;
	struct ddrv *a = c->drv[0];

	SHIM_EXPLORE_CHECK(atomic_read(&a->removes) == 2,
			   "%d removes, wanted one per device", atomic_read(&a->removes));
	SHIM_EXPLORE_CHECK(!c->dev[1]->dev.driver, "device 1 still bound");
	ddm_device_unregister(&c->dev[1]->dev);
	check_common(c, 2);
	dctx_free(c);
}

const struct shim_scenario ddm_drv_unreg_vs_dev_unreg = {
	.name = "ddm_drv_unreg_vs_dev_unreg",
	.setup = setup_bound,
	.body = { drv_unreg, dev0_unreg },
	.check = check_unbound_all,
};

/* --- driver register vs device add (D2, D4) ----------------------------- */

static void *setup_two_drivers(void)
{
	struct dctx *c = dctx_new();

	c->drv[0] = drv_new(c, "ex-a", 0x1);
	c->drv[1] = drv_new(c, "ex-b", 0x1);
	c->dev[0] = dev_new(c, 0);
	return c;
}

DDM_BODY(dev0_reg, ddm_device_register(&c->dev[0]->dev))

DDM_BODY(drv_a_reg, ddm_driver_register(&c->drv[0]->drv))

DDM_BODY(drv_b_reg, ddm_driver_register(&c->drv[1]->drv))

static void check_bound_once(void *ctx)
{
	struct dctx *c = ctx;

	/* D2: registered, matching: bound.  D4: bound by one driver only. */
	SHIM_EXPLORE_CHECK(c->dev[0]->dev.driver, "device left unbound");
	SHIM_EXPLORE_CHECK(atomic_read(&c->probes) == 1, "%d probes, wanted 1",
			   atomic_read(&c->probes));
	ddm_device_unregister(&c->dev[0]->dev);
	ddm_driver_unregister(&c->drv[0]->drv);
	ddm_driver_unregister(&c->drv[1]->drv);
	check_common(c, 1);
	SHIM_EXPLORE_CHECK(atomic_read(&c->removes) == 1, "%d removes, wanted 1",
			   atomic_read(&c->removes));
	dctx_free(c);
}

const struct shim_scenario ddm_drv_reg_vs_dev_add = {
	.name = "ddm_drv_reg_vs_dev_add",
	.setup = setup_two_drivers,
	.body = { dev0_reg, drv_a_reg, drv_b_reg },
	.check = check_bound_once,
};

/* --- a probe that sleeps, the driver going meanwhile --------------------- */

static void *setup_sleeper(void)
{
	struct dctx *c = dctx_new();

	c->drv[0] = drv_new(c, "ex-a", 0x1);
	c->drv[0]->sleeps = true;
	ddm_driver_register(&c->drv[0]->drv);
	c->dev[0] = dev_new(c, 0);
	return c;
}

static void check_paired(void *ctx)
{
	struct dctx *c = ctx;

	SHIM_EXPLORE_CHECK(!c->dev[0]->dev.driver, "bound to an unregistered driver");
	SHIM_EXPLORE_CHECK(atomic_read(&c->probes) == atomic_read(&c->removes),
			   "%d probes, %d removes", atomic_read(&c->probes),
			   atomic_read(&c->removes));
	ddm_device_unregister(&c->dev[0]->dev);
	check_common(c, 1);
	dctx_free(c);
}

const struct shim_scenario ddm_sleeping_probe_vs_drv_unreg = {
	.name = "ddm_sleeping_probe_vs_drv_unreg",
	.setup = setup_sleeper,
	.body = { dev0_reg, drv_unreg },
	.check = check_paired,
};

/* --- a probe that fails, another device added meanwhile ------------------ */

static void *setup_failer(void)
{
	struct dctx *c = dctx_new();

	c->drv[0] = drv_new(c, "ex-a", 0x3);
	c->drv[0]->fail_id = 1;
	ddm_driver_register(&c->drv[0]->drv);
	c->dev[0] = dev_new(c, 0);
	c->dev[1] = dev_new(c, 1);
	return c;
}

DDM_BODY(dev1_reg, ddm_device_register(&c->dev[1]->dev))

static void check_failer(void *ctx)
{
	struct dctx *c = ctx;

	SHIM_EXPLORE_CHECK(c->dev[0]->dev.driver, "device 0 unbound");
	SHIM_EXPLORE_CHECK(!c->dev[1]->dev.driver, "device 1 bound, its probe failed");
	ddm_device_unregister(&c->dev[0]->dev);
	ddm_device_unregister(&c->dev[1]->dev);
	ddm_driver_unregister(&c->drv[0]->drv);
	SHIM_EXPLORE_CHECK(atomic_read(&c->removes) == 1, "%d removes, wanted 1",
			   atomic_read(&c->removes));
	check_common(c, 2);
	dctx_free(c);
}

const struct shim_scenario ddm_failing_probe_vs_dev_add = {
	.name = "ddm_failing_probe_vs_dev_add",
	.setup = setup_failer,
	.body = { dev0_reg, dev1_reg },
	.check = check_failer,
};

/* --- bind/unbind vs suspend/resume --------------------------------------- */

static void unbind_rebind(void *ctx)
{
	struct dctx *c = ctx;

	ddm_device_release_driver(&c->dev[0]->dev);
	ddm_device_attach(&c->dev[0]->dev);
}

static void suspend_resume(void *ctx)
{
	struct dctx *c = ctx;

	ddm_device_suspend(&c->dev[0]->dev);
	ddm_device_resume(&c->dev[0]->dev);
}

static void check_rebound(void *ctx)
{
	struct dctx *c = ctx;

	SHIM_EXPLORE_CHECK(c->dev[0]->dev.driver, "device 0 not bound again");
	ddm_device_unregister(&c->dev[0]->dev);
	ddm_device_unregister(&c->dev[1]->dev);
	ddm_driver_unregister(&c->drv[0]->drv);
	check_common(c, 2);
	SHIM_EXPLORE_CHECK(atomic_read(&c->probes) == atomic_read(&c->removes),
			   "%d probes, %d removes", atomic_read(&c->probes),
			   atomic_read(&c->removes));
	dctx_free(c);
}

const struct shim_scenario ddm_bind_unbind_vs_suspend = {
	.name = "ddm_bind_unbind_vs_suspend",
	.setup = setup_bound,
	.body = { unbind_rebind, suspend_resume },
	.check = check_rebound,
};

/* --- a preset driver, unregistered while the device is added (D6, D7) ---- */

static void *setup_preset(void)
{
	struct dctx *c = dctx_new();

	c->drv[0] = drv_new(c, "ex-a", 0x1);
	ddm_driver_register(&c->drv[0]->drv);
	c->dev[0] = dev_new(c, 0);
	c->dev[0]->dev.driver = &c->drv[0]->drv;
	return c;
}

static void drv_unreg_free(void *ctx)
{
	struct dctx *c = ctx;
	struct ddrv *a = c->drv[0];

	ddm_driver_unregister(&a->drv);
	c->drv[0] = NULL;
	kfree(a);		/* legal: unregistered */
}

static void check_preset(void *ctx)
{
	struct dctx *c = ctx;

	SHIM_EXPLORE_CHECK(!c->dev[0]->dev.driver,
			   "device bound to a driver that was unregistered");
	ddm_device_unregister(&c->dev[0]->dev);
	check_common(c, 1);
	dctx_free(c);
}

/* A preset driver is bound without a probe; its unregister unbinds. */
const struct shim_scenario ddm_preset_driver_vs_drv_unreg = {
	.name = "ddm_preset_driver_vs_drv_unreg",
	.setup = setup_preset,
	.body = { dev0_reg, drv_unreg_free },
	.check = check_preset,
};

/* --- walks of a NULL bus (D5), beside a device add ----------------------- */

static int count(struct ddm_device *dev, void *data)
{
	(*(int *)data)++;
	return 0;
}

static void walk_null_bus(void *ctx)
{
	int n = 0;

	SHIM_EXPLORE_CHECK(ddm_bus_for_each_dev(NULL, NULL, &n, count) == -EINVAL,
			   "a walk of a NULL bus did not say -EINVAL");
}

static void walk_bus(void *ctx)
{
	struct dctx *c = ctx;
	int n = 0;

	SHIM_EXPLORE_CHECK(ddm_bus_for_each_dev(&c->bus, NULL, &n, count) == 0 &&
			   n <= 1, "a bus walk saw %d devices", n);
}

static void *setup_one_dev(void)
{
	struct dctx *c = dctx_new();

	c->dev[0] = dev_new(c, 0);
	return c;
}

static void check_one_dev(void *ctx)
{
	struct dctx *c = ctx;

	ddm_device_unregister(&c->dev[0]->dev);
	check_common(c, 1);
	dctx_free(c);
}

const struct shim_scenario ddm_null_bus_walk = {
	.name = "ddm_null_bus_walk",
	.setup = setup_one_dev,
	.body = { walk_null_bus, dev0_reg, walk_bus },
	.check = check_one_dev,
};

/* --- a listener that reacts to "add", then unsubscribes (H1) ------------- */

static void *setup_listener(void)
{
	struct dctx *c = dctx_new();

	c->dev[0] = dev_new(c, 0);
	c->dev[0]->dev.devt = DDM_MKDEV(10, 1);
	ddm_listener_init(&c->l, "ex-udev");
	ddm_listener_subscribe(&c->l);
	return c;
}

/* udev: on "add", read `dev` to make the node; then leave, events queued. */
static void listener(void *ctx)
{
	struct dctx *c = ctx;
	struct ddm_uevent *ev = ddm_listener_next(&c->l);
	char buf[32];

	if (!IS_ERR_OR_NULL(ev)) {
		if (ev->action == DDM_UEVENT_ADD) {
			ssize_t n = ddm_object_read_attr(ev->obj, "dev", buf,
							 sizeof(buf));

			/* Missing is fine only once its removal has begun. */
			SHIM_EXPLORE_CHECK(n > 0 || READ_ONCE(c->unregistering),
					   "\"add\" seen before the `dev` attribute exists");
		}
		ddm_uevent_free(ev);
	}
	ddm_listener_unsubscribe(&c->l);
	ddm_listener_flush(&c->l);
}

static void dev0_reg_unreg(void *ctx)
{
	struct dctx *c = ctx;

	ddm_device_register(&c->dev[0]->dev);
	WRITE_ONCE(c->unregistering, 1);
	ddm_device_unregister(&c->dev[0]->dev);
}

static void check_listener(void *ctx)
{
	struct dctx *c = ctx;

	ddm_listener_flush(&c->l);
	check_common(c, 1);
	dctx_free(c);
}

const struct shim_scenario ddm_listener_unsubscribe_queued = {
	.name = "ddm_listener_unsubscribe_queued",
	.setup = setup_listener,
	.body = { listener, dev0_reg_unreg },
	.check = check_listener,
};

/* --- class devices made and destroyed by number -------------------------- */

static void *setup_class(void)
{
	struct dctx *c = dctx_new();

	c->cls = ddm_class_create(NULL, "ex-class");
	return c;
}

static void class_dev_cycle(struct dctx *c, int who)
{
	struct ddm_class_device *cd;

	cd = ddm_class_device_create(c->cls, DDM_MKDEV(10, 5), NULL, "ex-cd%d", who);
	if (IS_ERR(cd)) {
		SHIM_EXPLORE_CHECK(PTR_ERR(cd) == -EEXIST, "create said %ld",
				   PTR_ERR(cd));
		return;
	}
	c->created[who] = 1;
	SHIM_EXPLORE_CHECK(ddm_class_device_destroy(c->cls, DDM_MKDEV(10, 5)) == 0,
			   "destroy of a device this task made failed");
}

static void class_dev_a(void *ctx)
{
	class_dev_cycle(ctx, 0);
}

static void class_dev_b(void *ctx)
{
	class_dev_cycle(ctx, 1);
}

static void check_class(void *ctx)
{
	struct dctx *c = ctx;
	struct ddm_class_device *cd = ddm_class_find_device(c->cls, DDM_MKDEV(10, 5));

	SHIM_EXPLORE_CHECK(!cd, "a class device outlived its destroy");
	if (cd)
		ddm_class_device_put(cd);
	SHIM_EXPLORE_CHECK(c->created[0] || c->created[1], "neither create worked");
	ddm_class_destroy(c->cls);
	dctx_free(c);
}

const struct shim_scenario ddm_class_devno_create_destroy = {
	.name = "ddm_class_devno_create_destroy",
	.setup = setup_class,
	.body = { class_dev_a, class_dev_b },
	.check = check_class,
};

/* --- the order listeners hear: no "bind" before an "add" (H2) ------------ */

static void *setup_events(void)
{
	struct dctx *c = dctx_new();

	c->drv[0] = drv_new(c, "ex-a", 0x1);
	c->dev[0] = dev_new(c, 0);
	ddm_listener_init(&c->l, "ex-udev");
	ddm_listener_subscribe(&c->l);
	return c;
}

/* Where (@obj, @action) is among @n events, or -1. */
static int event_at(struct ddm_uevent **evs, int n, struct ddm_object *obj,
		    enum ddm_uevent_action action)
{
	int i;

	for (i = 0; i < n; i++)
		if (evs[i]->obj == obj && evs[i]->action == action)
			return i;
	return -1;
}

static void check_events_in_order(void *ctx)
{
	struct dctx *c = ctx;
	struct ddm_uevent *evs[8];
	int n = 0, bind;

	SHIM_EXPLORE_CHECK(c->dev[0]->dev.driver, "device left unbound");
	while (n < 8 && !IS_ERR(evs[n] = ddm_listener_poll(&c->l)))
		n++;
	bind = event_at(evs, n, c->dev[0]->dev.obj, DDM_UEVENT_BIND);
	SHIM_EXPLORE_CHECK(bind > event_at(evs, n, c->dev[0]->dev.obj,
					   DDM_UEVENT_ADD),
			   "\"bind\" of the device before its \"add\"");
	SHIM_EXPLORE_CHECK(bind > event_at(evs, n, c->drv[0]->drv.obj,
					   DDM_UEVENT_ADD),
			   "\"bind\" to the driver before the driver's \"add\"");
	while (n)
		ddm_uevent_free(evs[--n]);
	ddm_device_unregister(&c->dev[0]->dev);
	ddm_driver_unregister(&c->drv[0]->drv);
	ddm_listener_unsubscribe(&c->l);
	ddm_listener_flush(&c->l);
	check_common(c, 1);
	dctx_free(c);
}

const struct shim_scenario ddm_drv_reg_vs_dev_add_events = {
	.name = "ddm_drv_reg_vs_dev_add_events",
	.setup = setup_events,
	.body = { dev0_reg, drv_a_reg },
	.check = check_events_in_order,
};

/* --- one device registered twice at once (D9) ---------------------------- */

static void *setup_double_register(void)
{
	struct dctx *c = dctx_new();

	c->dev[0] = dev_new(c, 0);
	/* Exactly one of the two loses the claim, and says so. */
	shim_expect_report("device ex-dev0 registered twice");
	return c;
}

static void check_registered_once(void *ctx)
{
	struct dctx *c = ctx;

	SHIM_EXPLORE_CHECK(shim_expected_reports_seen() == 1,
			   "%d registers reported", shim_expected_reports_seen());
	ddm_device_unregister(&c->dev[0]->dev);
	check_common(c, 1);
	dctx_free(c);
}

const struct shim_scenario ddm_dev_reg_vs_dev_reg = {
	.name = "ddm_dev_reg_vs_dev_reg",
	.setup = setup_double_register,
	.body = { dev0_reg, dev0_reg },
	.check = check_registered_once,
};

/* --- one driver unregistered twice at once (D9) -------------------------- */

static void *setup_double_unregister(void)
{
	struct dctx *c = setup_bound();

	shim_expect_report("driver ex-a is not registered");
	return c;
}

static void check_unregistered_once(void *ctx)
{
	struct dctx *c = ctx;

	SHIM_EXPLORE_CHECK(shim_expected_reports_seen() == 1,
			   "%d unregisters reported", shim_expected_reports_seen());
	SHIM_EXPLORE_CHECK(atomic_read(&c->drv[0]->removes) == 2,
			   "%d removes, wanted one per device",
			   atomic_read(&c->drv[0]->removes));
	ddm_device_unregister(&c->dev[0]->dev);
	ddm_device_unregister(&c->dev[1]->dev);
	check_common(c, 2);
	dctx_free(c);
}

const struct shim_scenario ddm_drv_unreg_vs_drv_unreg = {
	.name = "ddm_drv_unreg_vs_drv_unreg",
	.setup = setup_double_unregister,
	.body = { drv_unreg, drv_unreg },
	.check = check_unregistered_once,
};
