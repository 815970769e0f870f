// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel-only KUnit suite: walk the real platform bus of the booted
 * kernel.  bus_for_each_dev() walks the bus's klist of devices (starting
 * at a given device takes klist_iter_init_node()), bus_for_each_drv()
 * the klist of drivers, device_for_each_child() and its _reverse variant
 * the parent's klist of children with klist_next() and klist_prev().
 * Finding the devices there shows the driver core runs on this klist.
 *
 * Local helpers and fixtures carry the kpt_ prefix (for klist-platform-test).
 */

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#define KPT_MAX	256

struct kpt_walk {
	int nr;
	struct device *devs[KPT_MAX];
};

static int kpt_record(struct device *dev, void *data)
{
	struct kpt_walk *w = data;

	if (w->nr < KPT_MAX)
		w->devs[w->nr] = dev;
	w->nr++;
	return 0;
}

static int kpt_stop_at(struct device *dev, void *data)
{
	return dev == data ? 1 : 0;
}

static int kpt_count_drv(struct device_driver *drv, void *data)
{
	(*(int *)data)++;
	return 0;
}

static struct kpt_walk *kpt_walk_bus(struct kunit *test, struct device *start)
{
	struct kpt_walk *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, bus_for_each_dev(&platform_bus_type, start, w,
					       kpt_record), 0);
	return w;
}

static void klist_platform_bus_walk(struct kunit *test)
{
	struct kpt_walk *all, *again;
	int i, j;

	all = kpt_walk_bus(test, NULL);
	kunit_info(test, "%d platform devices\n", all->nr);
	KUNIT_ASSERT_GT(test, all->nr, 0);
	KUNIT_ASSERT_LE(test, all->nr, KPT_MAX);

	for (i = 0; i < all->nr; i++) {
		KUNIT_EXPECT_PTR_EQ(test, all->devs[i]->bus, &platform_bus_type);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_PTR_NE(test, all->devs[i], all->devs[j]);
	}

	/* a walk from a device starts right after it */
	i = all->nr / 2;
	again = kpt_walk_bus(test, all->devs[i]);
	KUNIT_EXPECT_EQ(test, again->nr, all->nr - i - 1);
	for (j = 0; j < again->nr && i + 1 + j < all->nr; j++)
		KUNIT_EXPECT_PTR_EQ(test, again->devs[j], all->devs[i + 1 + j]);

	/* a callback's non-zero return ends the walk and is returned */
	KUNIT_EXPECT_EQ(test, bus_for_each_dev(&platform_bus_type, NULL,
					       all->devs[i], kpt_stop_at), 1);
}

static void klist_platform_find_device(struct kunit *test)
{
	struct device *dev;

	if (!IS_ENABLED(CONFIG_SERIAL_8250))
		kunit_skip(test, "CONFIG_SERIAL_8250 is off");
	/* serial8250_init() registers this device unconditionally */
	dev = bus_find_device_by_name(&platform_bus_type, NULL, "serial8250");
	KUNIT_ASSERT_NOT_NULL(test, dev);
	KUNIT_EXPECT_STREQ(test, dev_name(dev), "serial8250");
	put_device(dev);
}

static void klist_platform_drivers(struct kunit *test)
{
	int nr = 0;

	KUNIT_EXPECT_EQ(test, bus_for_each_drv(&platform_bus_type, NULL, &nr,
					       kpt_count_drv), 0);
	kunit_info(test, "%d platform drivers\n", nr);
	KUNIT_EXPECT_GT(test, nr, 0);
}

static void klist_platform_children_both_ways(struct kunit *test)
{
	struct kpt_walk *fwd, *rev;
	int i;

	fwd = kunit_kzalloc(test, sizeof(*fwd), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fwd);
	rev = kunit_kzalloc(test, sizeof(*rev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rev);

	KUNIT_EXPECT_EQ(test, device_for_each_child(&platform_bus, fwd,
						    kpt_record), 0);
	KUNIT_EXPECT_EQ(test, device_for_each_child_reverse(&platform_bus, rev,
							    kpt_record), 0);
	kunit_info(test, "%d children of %s\n", fwd->nr,
		   dev_name(&platform_bus));
	KUNIT_ASSERT_GT(test, fwd->nr, 0);
	KUNIT_ASSERT_LE(test, fwd->nr, KPT_MAX);
	KUNIT_ASSERT_EQ(test, rev->nr, fwd->nr);
	for (i = 0; i < fwd->nr; i++)
		KUNIT_EXPECT_PTR_EQ(test, rev->devs[i],
				    fwd->devs[fwd->nr - 1 - i]);
}

static struct kunit_case klist_platform_cases[] = {
	KUNIT_CASE(klist_platform_bus_walk),
	KUNIT_CASE(klist_platform_find_device),
	KUNIT_CASE(klist_platform_drivers),
	KUNIT_CASE(klist_platform_children_both_ways),
	{}
};

static struct kunit_suite klist_platform_suite = {
	.name = "klist_platform",
	.test_cases = klist_platform_cases,
};
kunit_test_suite(klist_platform_suite);

MODULE_DESCRIPTION("klist-port: walk the platform bus of the booted kernel");
MODULE_LICENSE("GPL");
