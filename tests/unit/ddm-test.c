// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the ddm binding core: registration, binding and
 * unbinding, the three walks, the calls into a bound driver, and the
 * RFC's client conversions (pnp, usb) as users of the public API.
 * Shared with KUnit in the kernel: kernel APIs only, and nothing here
 * may WARN.  Every test counts probes, removes, bound devices and
 * released devices.
 */
#include <kunit/test.h>
#include <linux/ddm.h>
#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/slab.h>

#include "ddm-test-fixture.h"

/* dt_: this file's own helpers; the fixture's are fx_ (ddm-test-fixture.h). */

/* --- registration ----------------------------------------------------- */

static int dt_never(struct ddm_device *dev, void *data)
{
	return -EIO;
}

static int dt_never_drv(struct ddm_driver *drv, void *data)
{
	return -EIO;
}

static void ddm_test_empty_bus(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);

	KUNIT_EXPECT_TRUE(test, ddm_bus_is_registered(&c->bus));
	KUNIT_EXPECT_EQ(test, ddm_bus_for_each_dev(&c->bus, NULL, NULL,
						   dt_never), 0);
	KUNIT_EXPECT_EQ(test, ddm_bus_for_each_drv(&c->bus, NULL, NULL,
						   dt_never_drv), 0);
	KUNIT_EXPECT_EQ(test, ddm_bus_shutdown(&c->bus), 0);
	ddm_bus_unregister(&c->bus);
	KUNIT_EXPECT_FALSE(test, ddm_bus_is_registered(&c->bus));
	/* A bus can come back. */
	KUNIT_EXPECT_EQ(test, ddm_bus_register(&c->bus), 0);
	fx_teardown(test, c, 0);
}

static void ddm_test_device_without_driver(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_dev *d = fx_dev_add(test, c, 0);
	int n = 0;

	KUNIT_EXPECT_NULL(test, d->dev.driver);
	KUNIT_EXPECT_FALSE(test, ddm_device_is_bound(&d->dev));
	/* The caller's reference and the bus list's. */
	KUNIT_EXPECT_EQ(test, kref_read(&d->dev.kref), 2U);
	KUNIT_EXPECT_EQ(test, ddm_bus_for_each_dev(&c->bus, NULL, &n,
						   fx_count), 0);
	KUNIT_EXPECT_EQ(test, n, 1);
	KUNIT_EXPECT_EQ(test, ddm_device_attach(&d->dev), 0);
	ddm_device_unregister(&d->dev);
	fx_teardown(test, c, 1);
}

static void ddm_test_driver_binds_existing_devices(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_dev *devs[4];
	struct fx_drv *a;
	int i;

	for (i = 0; i < 4; i++)
		devs[i] = fx_dev_add(test, c, i);
	a = fx_drv_add(test, c, "fx-a", FX_ID(1) | FX_ID(3));
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 2);
	KUNIT_EXPECT_EQ(test, fx_bound(a), 2);
	for (i = 0; i < 4; i++) {
		bool want = i == 1 || i == 3;

		KUNIT_EXPECT_EQ_MSG(test, ddm_device_is_bound(&devs[i]->dev),
				    want, "dev%d", i);
		KUNIT_EXPECT_PTR_EQ(test, devs[i]->dev.driver,
				    want ? &a->drv : NULL);
		/* Bound devices are pinned by the driver's list as well. */
		KUNIT_EXPECT_EQ(test, kref_read(&devs[i]->dev.kref),
				want ? 3U : 2U);
	}
	ddm_driver_unregister(&a->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 2);
	KUNIT_EXPECT_EQ(test, fx_bound(a), 0);
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_NULL(test, devs[i]->dev.driver);
		KUNIT_EXPECT_EQ(test, kref_read(&devs[i]->dev.kref), 2U);
	}
	fx_unregister_all(devs, 4);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 2);
	fx_teardown(test, c, 4);
}

static void ddm_test_device_binds_on_add(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_add(test, c, "fx-a", FX_ID(0));
	struct fx_dev *devs[2];

	devs[0] = fx_dev_add(test, c, 0);
	devs[1] = fx_dev_add(test, c, 1);
	KUNIT_EXPECT_PTR_EQ(test, devs[0]->dev.driver, &a->drv);
	KUNIT_EXPECT_NULL(test, devs[1]->dev.driver);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);
	KUNIT_EXPECT_EQ(test, fx_bound(a), 1);
	KUNIT_EXPECT_EQ(test, ddm_device_attach(&devs[0]->dev), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);
	fx_unregister_all(devs, 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	KUNIT_EXPECT_EQ(test, fx_bound(a), 0);
	ddm_driver_unregister(&a->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	fx_teardown(test, c, 2);
}

static void ddm_test_first_matching_driver_wins(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_add(test, c, "fx-a", FX_ID(0));
	struct fx_drv *b = fx_drv_add(test, c, "fx-b", FX_ID(0));
	struct fx_dev *d = fx_dev_add(test, c, 0);

	KUNIT_EXPECT_PTR_EQ(test, d->dev.driver, &a->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->probes), 0);
	/* Unregistering a driver does not hand its devices on... */
	ddm_driver_unregister(&a->drv);
	KUNIT_EXPECT_NULL(test, d->dev.driver);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->probes), 0);
	/* ...an explicit attach does. */
	KUNIT_EXPECT_EQ(test, ddm_device_attach(&d->dev), 1);
	KUNIT_EXPECT_PTR_EQ(test, d->dev.driver, &b->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->probes), 2);
	ddm_device_unregister(&d->dev);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->removes), 1);
	ddm_driver_unregister(&b->drv);
	fx_teardown(test, c, 1);
}

/* --- probe results ----------------------------------------------------- */

static void ddm_test_failed_probes_try_next_driver(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *nodev = fx_drv_add(test, c, "fx-nodev", FX_ID(0));
	struct fx_drv *nxio = fx_drv_add(test, c, "fx-nxio", FX_ID(0));
	struct fx_drv *eio = fx_drv_add(test, c, "fx-eio", FX_ID(0));
	struct fx_drv *good = fx_drv_new(test, c, "fx-good", FX_ID(0));
	struct fx_dev *d;

	fx_drv_fail_probe(nodev, 0, -ENODEV);
	fx_drv_fail_probe(nxio, 0, -ENXIO);
	fx_drv_fail_probe(eio, 0, -EIO);
	d = fx_dev_add(test, c, 0);
	/* Nobody took it; every failure left it unbound. */
	KUNIT_EXPECT_NULL(test, d->dev.driver);
	KUNIT_EXPECT_FALSE(test, ddm_device_is_bound(&d->dev));
	KUNIT_EXPECT_NULL(test, ddm_get_drvdata(&d->dev));
	KUNIT_EXPECT_EQ(test, atomic_read(&d->probes), 3);
	KUNIT_EXPECT_EQ(test, fx_bound(eio), 0);
	KUNIT_EXPECT_EQ(test, kref_read(&d->dev.kref), 2U);

	/* Each error comes back from an explicit probe. */
	KUNIT_EXPECT_EQ(test, ddm_driver_probe_device(&nodev->drv, &d->dev),
			-ENODEV);
	KUNIT_EXPECT_EQ(test, ddm_driver_probe_device(&nxio->drv, &d->dev),
			-ENXIO);
	KUNIT_EXPECT_EQ(test, ddm_driver_probe_device(&eio->drv, &d->dev),
			-EIO);
	KUNIT_EXPECT_NULL(test, d->dev.driver);

	/* A later driver is found after the failing ones. */
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&good->drv), 0);
	KUNIT_EXPECT_PTR_EQ(test, d->dev.driver, &good->drv);
	ddm_device_release_driver(&d->dev);
	KUNIT_EXPECT_EQ(test, ddm_device_attach(&d->dev), 1);
	KUNIT_EXPECT_PTR_EQ(test, d->dev.driver, &good->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&good->probes), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&eio->probes), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&eio->removes), 0);

	ddm_driver_unregister(&nodev->drv);
	ddm_driver_unregister(&nxio->drv);
	ddm_driver_unregister(&eio->drv);
	ddm_device_unregister(&d->dev);
	KUNIT_EXPECT_EQ(test, atomic_read(&good->removes), 2);
	ddm_driver_unregister(&good->drv);
	fx_teardown(test, c, 1);
}

static void ddm_test_probe_of_non_matching_device(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_add(test, c, "fx-a", FX_ID(1));
	struct fx_dev *d = fx_dev_add(test, c, 0);

	KUNIT_EXPECT_EQ(test, ddm_driver_probe_device(&a->drv, &d->dev),
			-ENODEV);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 0);
	KUNIT_EXPECT_NULL(test, d->dev.driver);
	/* Without a match callback every driver matches. */
	c->bus.match = NULL;
	KUNIT_EXPECT_EQ(test, ddm_driver_probe_device(&a->drv, &d->dev), 0);
	KUNIT_EXPECT_PTR_EQ(test, d->dev.driver, &a->drv);
	ddm_driver_unregister(&a->drv);
	ddm_device_unregister(&d->dev);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	fx_teardown(test, c, 1);
}

static void ddm_test_probe_of_deleted_device(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_add(test, c, "fx-a", FX_ID(0));
	struct fx_dev *d = fx_dev_add(test, c, 0);

	ddm_device_del(&d->dev);	/* our reference keeps it */
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	KUNIT_EXPECT_EQ(test, ddm_driver_probe_device(&a->drv, &d->dev),
			-ENODEV);
	KUNIT_EXPECT_EQ(test, ddm_device_attach(&d->dev), -ENODEV);
	KUNIT_EXPECT_EQ(test, ddm_driver_attach(&a->drv), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);
	KUNIT_EXPECT_NULL(test, d->dev.driver);
	KUNIT_EXPECT_EQ(test, kref_read(&d->dev.kref), 1U);
	ddm_put_device(&d->dev);
	ddm_driver_unregister(&a->drv);
	fx_teardown(test, c, 1);
}

/* --- unbinding --------------------------------------------------------- */

static void ddm_test_release_driver_once(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_add(test, c, "fx-a", FX_ID(0));
	struct fx_dev *d = fx_dev_add(test, c, 0);

	ddm_device_release_driver(&d->dev);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	KUNIT_EXPECT_NULL(test, d->dev.driver);
	KUNIT_EXPECT_EQ(test, fx_bound(a), 0);
	KUNIT_EXPECT_EQ(test, kref_read(&d->dev.kref), 2U);
	ddm_device_release_driver(&d->dev);	/* not bound: nothing */
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	/* The node can be bound again once released. */
	KUNIT_EXPECT_EQ(test, ddm_device_attach(&d->dev), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 2);
	KUNIT_EXPECT_EQ(test, fx_bound(a), 1);
	ddm_device_unregister(&d->dev);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 2);
	ddm_driver_unregister(&a->drv);
	fx_teardown(test, c, 1);
}

static void ddm_test_driver_reregisters(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_add(test, c, "fx-a", FX_ID(0) | FX_ID(1) | FX_ID(2));
	struct fx_dev *devs[3];
	int i, round;

	for (i = 0; i < 3; i++)
		devs[i] = fx_dev_add(test, c, i);
	for (round = 1; round <= 3; round++) {
		KUNIT_EXPECT_EQ(test, fx_bound(a), 3);
		ddm_driver_unregister(&a->drv);
		KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 3 * round);
		KUNIT_EXPECT_EQ(test, fx_bound(a), 0);
		KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 3 * round + 3);
	}
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, atomic_read(&devs[i]->removes), 3);
	fx_unregister_all(devs, 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 12);
	ddm_driver_unregister(&a->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 12);
	fx_teardown(test, c, 3);
}

/* A walk pins the device it stands on, even once it is unregistered. */
struct dt_pin {
	struct fx_dev *victim;
	int seen, released_in_walk, after_id;
};

static int dt_pin_fn(struct ddm_device *dev, void *data)
{
	struct dt_pin *p = data;
	struct fx_dev *d = to_fx_dev(dev);

	p->seen++;
	if (d != p->victim)
		return 0;
	ddm_device_unregister(dev);
	p->released_in_walk = atomic_read(&d->ctx->released);
	p->after_id = d->id;	/* still valid memory */
	return 0;
}

static void ddm_test_walk_pins_unregistered_device(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_add(test, c, "fx-a", FX_ID(1));
	struct fx_dev *devs[3];
	struct dt_pin p = {};
	int i;

	for (i = 0; i < 3; i++)
		devs[i] = fx_dev_add(test, c, i);
	p.victim = devs[1];
	KUNIT_EXPECT_EQ(test, ddm_bus_for_each_dev(&c->bus, NULL, &p,
						   dt_pin_fn), 0);
	KUNIT_EXPECT_EQ(test, p.seen, 3);
	KUNIT_EXPECT_EQ(test, p.released_in_walk, 0);
	KUNIT_EXPECT_EQ(test, p.after_id, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	/* Freed once the walk stepped off it. */
	KUNIT_EXPECT_EQ(test, atomic_read(&c->released), 1);
	ddm_device_unregister(&devs[0]->dev);
	ddm_device_unregister(&devs[2]->dev);
	ddm_driver_unregister(&a->drv);
	fx_teardown(test, c, 3);
}

/* --- walks --------------------------------------------------------------- */

struct dt_walk {
	int ids[FX_DEVS];
	int n, stop_at;
};

static int dt_walk_dev(struct ddm_device *dev, void *data)
{
	struct dt_walk *w = data;
	int id = to_fx_dev(dev)->id;

	if (w->n < FX_DEVS)
		w->ids[w->n] = id;
	w->n++;
	return id == w->stop_at ? 100 + id : 0;
}

static int dt_walk_drv(struct ddm_driver *drv, void *data)
{
	struct dt_walk *w = data;
	int id = (int)to_fx_drv(drv)->mask;	/* drivers carry their id here */

	if (w->n < FX_DEVS)
		w->ids[w->n] = id;
	w->n++;
	return id == w->stop_at ? 100 + id : 0;
}

static void dt_expect_walk(struct kunit *test, struct dt_walk *w,
			   const int *want, int n)
{
	int i;

	KUNIT_EXPECT_EQ(test, w->n, n);
	for (i = 0; i < n && i < w->n; i++)
		KUNIT_EXPECT_EQ_MSG(test, w->ids[i], want[i], "position %d", i);
}

/*
 * The three walks, each from @start (NULL: the head) and stopping at id
 * @stop_at (-1: never), into a fresh @w.  Return what the walk returns.
 */
static int dt_walk_bus(struct fx_ctx *c, struct fx_dev *start, int stop_at,
		       struct dt_walk *w)
{
	*w = (struct dt_walk){ .stop_at = stop_at };
	return ddm_bus_for_each_dev(&c->bus, start ? &start->dev : NULL, w,
				    dt_walk_dev);
}

static int dt_walk_drivers(struct fx_ctx *c, struct fx_drv *start,
			   int stop_at, struct dt_walk *w)
{
	*w = (struct dt_walk){ .stop_at = stop_at };
	return ddm_bus_for_each_drv(&c->bus, start ? &start->drv : NULL, w,
				    dt_walk_drv);
}

static int dt_walk_bound(struct fx_drv *d, struct fx_dev *start,
			 int stop_at, struct dt_walk *w)
{
	*w = (struct dt_walk){ .stop_at = stop_at };
	return ddm_driver_for_each_device(&d->drv,
					  start ? &start->dev : NULL, w,
					  dt_walk_dev);
}

static void ddm_test_walk_bus_devices(struct kunit *test)
{
	static const int all[] = { 0, 1, 2, 3, 4 }, from1[] = { 2, 3, 4 };
	struct fx_ctx *c = fx_setup(test);
	struct fx_dev *devs[5];
	struct dt_walk w;
	int i;

	for (i = 0; i < 5; i++)
		devs[i] = fx_dev_add(test, c, i);
	KUNIT_EXPECT_EQ(test, dt_walk_bus(c, NULL, -1, &w), 0);
	dt_expect_walk(test, &w, all, 5);
	KUNIT_EXPECT_EQ(test, dt_walk_bus(c, devs[1], -1, &w), 0);
	dt_expect_walk(test, &w, from1, 3);
	KUNIT_EXPECT_EQ(test, dt_walk_bus(c, NULL, 3, &w), 103);
	dt_expect_walk(test, &w, all, 4);
	KUNIT_EXPECT_EQ(test, dt_walk_bus(c, devs[4], -1, &w), 0);
	KUNIT_EXPECT_EQ(test, w.n, 0);
	/* Walks leave no references behind. */
	for (i = 0; i < 5; i++)
		KUNIT_EXPECT_EQ(test, kref_read(&devs[i]->dev.kref), 2U);
	fx_unregister_all(devs, 5);
	fx_teardown(test, c, 5);
}

static void ddm_test_walk_bus_drivers(struct kunit *test)
{
	static const int all[] = { 0, 1, 2, 3 }, from2[] = { 3 };
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *drvs[4];
	struct dt_walk w;
	int i;

	/* mask doubles as the id; these drivers match nothing that exists. */
	for (i = 0; i < 4; i++)
		drvs[i] = fx_drv_add(test, c, "fx-walk", i);
	KUNIT_EXPECT_EQ(test, dt_walk_drivers(c, NULL, -1, &w), 0);
	dt_expect_walk(test, &w, all, 4);
	KUNIT_EXPECT_EQ(test, dt_walk_drivers(c, drvs[2], -1, &w), 0);
	dt_expect_walk(test, &w, from2, 1);
	KUNIT_EXPECT_EQ(test, dt_walk_drivers(c, NULL, 1, &w), 101);
	dt_expect_walk(test, &w, all, 2);
	/* An unregistered driver is no longer walked. */
	ddm_driver_unregister(&drvs[0]->drv);
	KUNIT_EXPECT_EQ(test, dt_walk_drivers(c, NULL, -1, &w), 0);
	dt_expect_walk(test, &w, all + 1, 3);
	for (i = 1; i < 4; i++)
		ddm_driver_unregister(&drvs[i]->drv);
	fx_teardown(test, c, 0);
}

static void ddm_test_walk_driver_devices(struct kunit *test)
{
	static const int all[] = { 1, 2, 4 }, from2[] = { 4 };
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_add(test, c, "fx-a", FX_ID(1) | FX_ID(2) | FX_ID(4));
	struct fx_dev *devs[5];
	struct dt_walk w;
	int i;

	for (i = 0; i < 5; i++)
		devs[i] = fx_dev_add(test, c, i);
	KUNIT_EXPECT_EQ(test, dt_walk_bound(a, NULL, -1, &w), 0);
	dt_expect_walk(test, &w, all, 3);
	KUNIT_EXPECT_EQ(test, dt_walk_bound(a, devs[2], -1, &w), 0);
	dt_expect_walk(test, &w, from2, 1);
	KUNIT_EXPECT_EQ(test, dt_walk_bound(a, NULL, 2, &w), 102);
	dt_expect_walk(test, &w, all, 2);
	/* An unbound device leaves the driver's list. */
	ddm_device_release_driver(&devs[2]->dev);
	KUNIT_EXPECT_EQ(test, dt_walk_bound(a, NULL, -1, &w), 0);
	KUNIT_EXPECT_EQ(test, w.n, 2);
	for (i = 0; i < 5; i++)
		KUNIT_EXPECT_EQ(test, kref_read(&devs[i]->dev.kref),
				i == 1 || i == 4 ? 3U : 2U);
	fx_unregister_all(devs, 5);
	ddm_driver_unregister(&a->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 3);
	fx_teardown(test, c, 5);
}

/* --- client conversions -------------------------------------------------- */

/* pnp_register_driver(): the number of devices the new driver took. */
static int dt_pnp_count_devices(struct ddm_device *dev, void *data)
{
	int *count = data;

	(*count)++;
	return 0;
}

static int dt_pnp_register_driver(struct fx_drv *d)
{
	int count = ddm_driver_register(&d->drv);

	if (count >= 0) {
		count = 0;
		ddm_driver_for_each_device(&d->drv, NULL, &count,
					   dt_pnp_count_devices);
	}
	return count;
}

static void ddm_test_pnp_counts_initial_matches(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_new(test, c, "fx-pnp", FX_ID(0) | FX_ID(2) | FX_ID(3));
	struct fx_dev *devs[4];
	int i;

	for (i = 0; i < 4; i++)
		devs[i] = fx_dev_add(test, c, i);
	/* One match refuses: not counted. */
	fx_drv_fail_probe(a, 3, -ENODEV);
	KUNIT_EXPECT_EQ(test, dt_pnp_register_driver(a), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 3);
	fx_unregister_all(devs, 4);
	ddm_driver_unregister(&a->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 2);
	fx_teardown(test, c, 4);
}

/*
 * usb_find_interface(): the interface bound to a driver that has a given
 * minor, found by a walk that stops there.  The RFC squeezed the minor
 * through a pointer cast; here a struct carries both ways.  The
 * interfaces' minors are dt_minors[], by device id (-1: none).
 */
static const int dt_minors[] = { -1, 16, 17, -1, 18 };

struct dt_find_intf {
	int minor;
	struct fx_dev *found;
	int visited;
};

static int dt_usb_match_minor(struct ddm_device *dev, void *data)
{
	struct dt_find_intf *f = data;
	struct fx_dev *intf = to_fx_dev(dev);
	int minor = dt_minors[intf->id];

	f->visited++;
	if (minor == -1 || minor != f->minor)
		return 0;
	f->found = intf;
	return 1;
}

static struct fx_dev *dt_usb_find_interface(struct fx_drv *d, int minor,
					    int *visited)
{
	struct dt_find_intf f = { .minor = minor };
	int ret = ddm_driver_for_each_device(&d->drv, NULL, &f,
					     dt_usb_match_minor);

	*visited = f.visited;
	return ret ? f.found : NULL;
}

static void ddm_test_usb_find_interface_by_minor(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_add(test, c, "fx-usb", 0x1fUL);
	struct fx_dev *devs[5];
	int i, visited;

	for (i = 0; i < 5; i++)
		devs[i] = fx_dev_add(test, c, i);
	KUNIT_EXPECT_PTR_EQ(test, dt_usb_find_interface(a, 17, &visited),
			    devs[2]);
	KUNIT_EXPECT_EQ(test, visited, 3);	/* stopped there */
	KUNIT_EXPECT_PTR_EQ(test, dt_usb_find_interface(a, 18, &visited),
			    devs[4]);
	KUNIT_EXPECT_EQ(test, visited, 5);
	KUNIT_EXPECT_NULL(test, dt_usb_find_interface(a, 19, &visited));
	KUNIT_EXPECT_EQ(test, visited, 5);
	KUNIT_EXPECT_NULL(test, dt_usb_find_interface(a, -1, &visited));
	/* An unbound interface is not found. */
	ddm_device_release_driver(&devs[2]->dev);
	KUNIT_EXPECT_NULL(test, dt_usb_find_interface(a, 17, &visited));
	KUNIT_EXPECT_EQ(test, visited, 4);
	fx_unregister_all(devs, 5);
	ddm_driver_unregister(&a->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 5);
	fx_teardown(test, c, 5);
}

/* --- manual binding, calls into the driver --------------------------------- */

static void ddm_test_bind_driver_claims_device(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_add(test, c, "fx-a", FX_ID(0));
	struct fx_dev *d0 = fx_dev_add(test, c, 0);
	struct fx_dev *d1 = fx_dev_add(test, c, 1);	/* a does not match */

	KUNIT_EXPECT_NULL(test, d1->dev.driver);
	ddm_device_lock(&d1->dev);
	d1->dev.driver = &a->drv;
	KUNIT_EXPECT_EQ(test, ddm_device_bind_driver(&d1->dev), 0);
	ddm_device_unlock(&d1->dev);
	KUNIT_EXPECT_TRUE(test, ddm_device_is_bound(&d1->dev));
	KUNIT_EXPECT_EQ(test, fx_bound(a), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 1);	/* d0 only */
	ddm_driver_unregister(&a->drv);
	KUNIT_EXPECT_EQ(test, atomic_read(&d0->removes), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&d1->removes), 1);
	ddm_device_unregister(&d0->dev);
	ddm_device_unregister(&d1->dev);
	fx_teardown(test, c, 2);
}

static void ddm_test_preset_driver_bound_on_add(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_add(test, c, "fx-a", 0);
	struct fx_dev *d = fx_dev_new(test, c, 0);

	ddm_device_initialize(&d->dev);
	d->dev.driver = &a->drv;
	KUNIT_ASSERT_EQ(test, ddm_device_add(&d->dev), 0);
	KUNIT_EXPECT_TRUE(test, ddm_device_is_bound(&d->dev));
	KUNIT_EXPECT_EQ(test, atomic_read(&a->probes), 0);
	KUNIT_EXPECT_EQ(test, fx_bound(a), 1);
	KUNIT_EXPECT_EQ(test, ddm_device_attach(&d->dev), 1);
	ddm_device_unregister(&d->dev);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	ddm_driver_unregister(&a->drv);
	fx_teardown(test, c, 1);
}

static void ddm_test_suspend_resume_shutdown(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_add(test, c, "fx-a", FX_ID(0) | FX_ID(2));
	struct fx_dev *devs[3];
	int i;

	for (i = 0; i < 3; i++)
		devs[i] = fx_dev_add(test, c, i);
	KUNIT_EXPECT_EQ(test, ddm_device_suspend(&devs[0]->dev), 0);
	a->suspend_ret = -EAGAIN;
	KUNIT_EXPECT_EQ(test, ddm_device_suspend(&devs[2]->dev), -EAGAIN);
	KUNIT_EXPECT_EQ(test, ddm_device_suspend(&devs[1]->dev), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->suspends), 2);
	KUNIT_EXPECT_EQ(test, ddm_device_resume(&devs[0]->dev), 0);
	KUNIT_EXPECT_EQ(test, ddm_device_resume(&devs[1]->dev), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->resumes), 1);
	KUNIT_EXPECT_EQ(test, ddm_bus_shutdown(&c->bus), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->shutdowns), 2);
	KUNIT_EXPECT_EQ(test, fx_bound(a), 2);	/* still bound */
	/* A driver without the callbacks is fine. */
	a->drv.suspend = NULL;
	a->drv.resume = NULL;
	a->drv.shutdown = NULL;
	KUNIT_EXPECT_EQ(test, ddm_device_suspend(&devs[0]->dev), 0);
	KUNIT_EXPECT_EQ(test, ddm_device_resume(&devs[0]->dev), 0);
	ddm_device_shutdown(&devs[0]->dev);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->suspends), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->shutdowns), 2);
	fx_unregister_all(devs, 3);
	ddm_driver_unregister(&a->drv);
	fx_teardown(test, c, 3);
}

static void ddm_test_references(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_new(test, c, "fx-a", FX_ID(0));
	struct fx_dev *d = fx_dev_new(test, c, 0);

	ddm_device_initialize(&d->dev);
	KUNIT_EXPECT_EQ(test, kref_read(&d->dev.kref), 1U);
	KUNIT_ASSERT_EQ(test, ddm_device_add(&d->dev), 0);
	KUNIT_EXPECT_EQ(test, kref_read(&d->dev.kref), 2U);
	KUNIT_ASSERT_EQ(test, ddm_driver_register(&a->drv), 0);
	KUNIT_EXPECT_EQ(test, kref_read(&d->dev.kref), 3U);
	KUNIT_EXPECT_PTR_EQ(test, ddm_get_device(&d->dev), &d->dev);
	KUNIT_EXPECT_EQ(test, kref_read(&d->dev.kref), 4U);
	ddm_put_device(&d->dev);
	KUNIT_EXPECT_NULL(test, ddm_get_device(NULL));
	ddm_put_device(NULL);
	ddm_device_del(&d->dev);
	KUNIT_EXPECT_EQ(test, kref_read(&d->dev.kref), 1U);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->released), 0);
	ddm_put_device(&d->dev);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->removes), 1);
	ddm_driver_unregister(&a->drv);
	fx_teardown(test, c, 1);
}

static void ddm_test_drvdata(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_drv *a = fx_drv_add(test, c, "fx-a", FX_ID(0));
	struct fx_dev *d = fx_dev_add(test, c, 0);
	int cookie;

	ddm_set_drvdata(&d->dev, &cookie);
	KUNIT_EXPECT_PTR_EQ(test, ddm_get_drvdata(&d->dev), &cookie);
	/* An unbind clears what the driver left. */
	ddm_device_release_driver(&d->dev);
	KUNIT_EXPECT_NULL(test, ddm_get_drvdata(&d->dev));
	ddm_device_unregister(&d->dev);
	ddm_driver_unregister(&a->drv);
	fx_teardown(test, c, 1);
}

static struct kunit_case ddm_test_cases[] = {
	KUNIT_CASE(ddm_test_empty_bus),
	KUNIT_CASE(ddm_test_device_without_driver),
	KUNIT_CASE(ddm_test_driver_binds_existing_devices),
	KUNIT_CASE(ddm_test_device_binds_on_add),
	KUNIT_CASE(ddm_test_first_matching_driver_wins),
	KUNIT_CASE(ddm_test_failed_probes_try_next_driver),
	KUNIT_CASE(ddm_test_probe_of_non_matching_device),
	KUNIT_CASE(ddm_test_probe_of_deleted_device),
	KUNIT_CASE(ddm_test_release_driver_once),
	KUNIT_CASE(ddm_test_driver_reregisters),
	KUNIT_CASE(ddm_test_walk_pins_unregistered_device),
	KUNIT_CASE(ddm_test_walk_bus_devices),
	KUNIT_CASE(ddm_test_walk_bus_drivers),
	KUNIT_CASE(ddm_test_walk_driver_devices),
	KUNIT_CASE(ddm_test_pnp_counts_initial_matches),
	KUNIT_CASE(ddm_test_usb_find_interface_by_minor),
	KUNIT_CASE(ddm_test_bind_driver_claims_device),
	KUNIT_CASE(ddm_test_preset_driver_bound_on_add),
	KUNIT_CASE(ddm_test_suspend_resume_shutdown),
	KUNIT_CASE(ddm_test_references),
	KUNIT_CASE(ddm_test_drvdata),
	{}
};

static struct kunit_suite ddm_test_suite = {
	.name = "ddm",
	.test_cases = ddm_test_cases,
};

kunit_test_suites(&ddm_test_suite);

MODULE_LICENSE("GPL");
