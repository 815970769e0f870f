// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for ddm classes (the 2005 class_create()/
 * class_device_create() interface): classes and class devices created
 * and destroyed, the `dev` attribute and `device` link in place before
 * the "add" event, lookups by device number, and the errors for
 * duplicate numbers, unknown numbers and destroyed classes.  Concurrent
 * creators never get a device's "remove" ahead of its "add".
 * Shared with KUnit in the kernel: kernel APIs only, nothing may WARN.
 */
#include <kunit/test.h>
#include <linux/ddm.h>
#include <linux/ddm_class.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ddm-test-fixture.h"

/*
 * cl_: this file's own helpers; the fixture's are fx_ (ddm-test-fixture.h).
 * Every case starts with one subscribed listener, the fixture's.
 */

#define CL_MAJOR	241
#define CL_BUF		32

/* Take the listener's next event, which must be @action on @obj: its devt. */
static ddm_devt_t cl_expect_event(struct kunit *test,
				  enum ddm_uevent_action action,
				  struct ddm_object *obj)
{
	return fx_expect_event(test, fx_listener(test), action, obj);
}

static void cl_expect_no_event(struct kunit *test)
{
	fx_expect_no_event(test, fx_listener(test));
}

static struct ddm_class *cl_create(struct kunit *test, const char *name)
{
	struct ddm_class *cls = ddm_class_create(THIS_MODULE, name);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cls);
	cl_expect_event(test, DDM_UEVENT_ADD, &cls->obj);
	return cls;
}

/* --- classes ------------------------------------------------------------- */

static void ddm_class_create_and_destroy(struct kunit *test)
{
	struct ddm_class *cls = ddm_class_create(THIS_MODULE, "cl-class");
	struct ddm_object *obj;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cls);
	KUNIT_EXPECT_STREQ(test, ddm_class_name(cls), "cl-class");
	KUNIT_EXPECT_PTR_EQ(test, cls->owner, THIS_MODULE);
	KUNIT_EXPECT_TRUE(test, ddm_object_is_added(&cls->obj));
	KUNIT_EXPECT_EQ(test, cl_expect_event(test, DDM_UEVENT_ADD,
					      &cls->obj), 0U);
	obj = &cls->obj;
	ddm_class_destroy(cls);
	/* The "remove" event holds the class's object until it is taken. */
	cl_expect_event(test, DDM_UEVENT_REMOVE, obj);
	cl_expect_no_event(test);
}

static void ddm_class_create_bad_name(struct kunit *test)
{
	KUNIT_EXPECT_PTR_EQ(test, ddm_class_create(THIS_MODULE, NULL),
			    ERR_PTR(-EINVAL));
	/* As class_destroy(): nothing to destroy is not an error. */
	ddm_class_destroy(NULL);
	ddm_class_destroy(ERR_PTR(-ENOMEM));
	cl_expect_no_event(test);
}

/* --- class devices ------------------------------------------------------- */

/* The `dev` attribute exists when the "add" event is emitted. */
static void ddm_class_device_create_dev_attr(struct kunit *test)
{
	struct ddm_class *cls = cl_create(test, "cl-class");
	ddm_devt_t devno = DDM_MKDEV(CL_MAJOR, 3);
	struct ddm_class_device *cd;
	struct ddm_uevent *ev;
	struct ddm_object *obj;
	char buf[CL_BUF];

	cd = ddm_class_device_create(cls, devno, NULL, "cl%d", 3);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cd);
	KUNIT_EXPECT_STREQ(test, ddm_object_name(&cd->obj), "cl3");
	KUNIT_EXPECT_EQ(test, ddm_class_device_devt(cd), devno);
	KUNIT_EXPECT_PTR_EQ(test, cd->cls, cls);
	KUNIT_EXPECT_PTR_EQ(test, cd->obj.parent, &cls->obj);

	ev = ddm_listener_poll(fx_listener(test));
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ev);
	KUNIT_EXPECT_EQ(test, (int)ev->action, (int)DDM_UEVENT_ADD);
	KUNIT_EXPECT_PTR_EQ(test, ev->obj, &cd->obj);
	KUNIT_EXPECT_EQ(test, ev->devt, devno);
	KUNIT_EXPECT_EQ(test, ddm_object_read_attr(ev->obj, "dev", buf,
						   sizeof(buf)), 5L);
	KUNIT_EXPECT_STREQ(test, buf, "241:3");
	/* No device given, no `device` link. */
	KUNIT_EXPECT_PTR_EQ(test, ddm_object_get_link(ev->obj, "device"),
			    ERR_PTR(-ENOENT));
	ddm_uevent_free(ev);

	obj = &cd->obj;
	KUNIT_EXPECT_EQ(test, ddm_class_device_destroy(cls, devno), 0);
	KUNIT_EXPECT_EQ(test, cl_expect_event(test, DDM_UEVENT_REMOVE, obj),
			devno);
	KUNIT_EXPECT_EQ(test, ddm_class_device_destroy(cls, devno), -ENOENT);
	ddm_class_destroy(cls);
	cl_expect_event(test, DDM_UEVENT_REMOVE, &cls->obj);
	cl_expect_no_event(test);
}

/*
 * A registered device on @c's bus, its "add" taken.  Kept (the test's
 * memory): a test gives it to ddm_class_device_create() after its
 * release.
 */
static struct fx_dev *cl_dev_register(struct kunit *test, struct fx_ctx *c)
{
	struct fx_dev *d = fx_dev_new_kept(test, c, 0);

	KUNIT_ASSERT_EQ(test, ddm_device_register(&d->dev), 0);
	cl_expect_event(test, DDM_UEVENT_ADD, d->dev.obj);
	return d;
}

/* With a device, the `device` link exists when "add" is emitted too. */
static void ddm_class_device_device_link(struct kunit *test)
{
	struct fx_ctx *c = fx_setup(test);
	struct fx_dev *d = cl_dev_register(test, c);
	struct ddm_class *cls = cl_create(test, "cl-class");
	ddm_devt_t devno = DDM_MKDEV(CL_MAJOR, 0x12345);
	struct ddm_object *dobj = ddm_object_get(d->dev.obj), *link;
	struct ddm_class_device *cd;
	struct ddm_uevent *ev;
	char buf[CL_BUF];

	cd = ddm_class_device_create(cls, devno, &d->dev, "cl-%s", "link");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cd);
	ev = ddm_listener_poll(fx_listener(test));
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ev);
	KUNIT_EXPECT_PTR_EQ(test, ev->obj, &cd->obj);
	link = ddm_object_get_link(ev->obj, "device");
	KUNIT_EXPECT_PTR_EQ(test, link, dobj);
	if (!IS_ERR(link))
		ddm_object_put(link);
	KUNIT_EXPECT_EQ(test, ddm_object_read_attr(ev->obj, "dev", buf,
						   sizeof(buf)), 9L);
	KUNIT_EXPECT_STREQ(test, buf, "241:74565");
	ddm_uevent_free(ev);

	/* The link pins the device's object, not the device. */
	KUNIT_EXPECT_EQ(test, kref_read(&d->dev.kref), 2U);
	ddm_device_unregister(&d->dev);
	cl_expect_event(test, DDM_UEVENT_REMOVE, dobj);
	link = ddm_object_get_link(&cd->obj, "device");
	KUNIT_EXPECT_PTR_EQ(test, link, dobj);
	if (!IS_ERR(link)) {
		KUNIT_EXPECT_FALSE(test, ddm_object_is_added(link));
		ddm_object_put(link);
	}
	KUNIT_EXPECT_EQ(test, ddm_class_device_destroy(cls, devno), 0);
	cl_expect_event(test, DDM_UEVENT_REMOVE, &cd->obj);
	KUNIT_EXPECT_EQ(test, kref_read(&dobj->kref), 1U);
	ddm_object_put(dobj);
	ddm_class_destroy(cls);
	cl_expect_event(test, DDM_UEVENT_REMOVE, &cls->obj);
	fx_teardown(test, c, 1);
}

/* A number is unique within its class, not across classes. */
static void ddm_class_device_duplicate_devno(struct kunit *test)
{
	struct ddm_class *a = cl_create(test, "cl-a");
	struct ddm_class *b = cl_create(test, "cl-b");
	ddm_devt_t devno = DDM_MKDEV(CL_MAJOR, 1);
	struct ddm_class_device *cd, *dup, *other;

	cd = ddm_class_device_create(a, devno, NULL, "cl-first");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cd);
	cl_expect_event(test, DDM_UEVENT_ADD, &cd->obj);
	dup = ddm_class_device_create(a, devno, NULL, "cl-second");
	KUNIT_EXPECT_PTR_EQ(test, dup, ERR_PTR(-EEXIST));
	cl_expect_no_event(test);
	other = ddm_class_device_create(b, devno, NULL, "cl-other");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, other);
	cl_expect_event(test, DDM_UEVENT_ADD, &other->obj);

	KUNIT_EXPECT_EQ(test, ddm_class_device_destroy(a, devno), 0);
	cl_expect_event(test, DDM_UEVENT_REMOVE, &cd->obj);
	/* Free again: the number can be had. */
	dup = ddm_class_device_create(a, devno, NULL, "cl-second");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dup);
	cl_expect_event(test, DDM_UEVENT_ADD, &dup->obj);
	KUNIT_EXPECT_EQ(test, ddm_class_device_destroy(a, devno), 0);
	cl_expect_event(test, DDM_UEVENT_REMOVE, &dup->obj);
	KUNIT_EXPECT_EQ(test, ddm_class_device_destroy(b, devno), 0);
	cl_expect_event(test, DDM_UEVENT_REMOVE, &other->obj);
	ddm_class_destroy(a);
	cl_expect_event(test, DDM_UEVENT_REMOVE, &a->obj);
	ddm_class_destroy(b);
	cl_expect_event(test, DDM_UEVENT_REMOVE, &b->obj);
}

#define CL_DEVS		4

/* Found by number; a reference from a lookup outlives the destroy. */
static void ddm_class_find_device_by_devno(struct kunit *test)
{
	struct ddm_class *cls = cl_create(test, "cl-class");
	struct ddm_class_device *cds[CL_DEVS], *found;
	char buf[CL_BUF];
	int i;

	for (i = 0; i < CL_DEVS; i++) {
		cds[i] = ddm_class_device_create(cls, DDM_MKDEV(CL_MAJOR, i),
						 NULL, "cl%d", i);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cds[i]);
	}
	for (i = CL_DEVS - 1; i >= 0; i--) {
		found = ddm_class_find_device(cls, DDM_MKDEV(CL_MAJOR, i));
		KUNIT_EXPECT_PTR_EQ(test, found, cds[i]);
		ddm_class_device_put(found);
	}
	KUNIT_EXPECT_NULL(test, ddm_class_find_device(cls,
						DDM_MKDEV(CL_MAJOR, 99)));
	KUNIT_EXPECT_NULL(test, ddm_class_find_device(NULL,
						DDM_MKDEV(CL_MAJOR, 1)));

	found = ddm_class_find_device(cls, DDM_MKDEV(CL_MAJOR, 2));
	KUNIT_ASSERT_PTR_EQ(test, found, cds[2]);
	KUNIT_EXPECT_EQ(test, ddm_class_device_destroy(cls,
						DDM_MKDEV(CL_MAJOR, 2)), 0);
	KUNIT_EXPECT_NULL(test, ddm_class_find_device(cls,
						DDM_MKDEV(CL_MAJOR, 2)));
	/* Still a valid structure, but it shows nothing any more. */
	KUNIT_EXPECT_STREQ(test, ddm_object_name(&found->obj), "cl2");
	KUNIT_EXPECT_EQ(test, ddm_object_read_attr(&found->obj, "dev", buf,
						   sizeof(buf)), (long)-ENOENT);
	ddm_class_device_put(found);

	for (i = 0; i < CL_DEVS; i++)
		if (i != 2)
			KUNIT_EXPECT_EQ(test, ddm_class_device_destroy(cls,
						DDM_MKDEV(CL_MAJOR, i)), 0);
	ddm_class_destroy(cls);
}

static void ddm_class_device_create_errors(struct kunit *test)
{
	struct ddm_class *cls = cl_create(test, "cl-class");
	struct fx_ctx *c = fx_setup(test);
	struct fx_dev *d = cl_dev_register(test, c);
	struct ddm_device unadded = { .name = "cl-unadded" };
	ddm_devt_t devno = DDM_MKDEV(CL_MAJOR, 5);
	struct ddm_object *dobj = d->dev.obj;

	KUNIT_EXPECT_PTR_EQ(test, ddm_class_device_create(NULL, devno, NULL,
							  "cl-x"),
			    ERR_PTR(-EINVAL));
	KUNIT_EXPECT_PTR_EQ(test, ddm_class_device_create(ERR_PTR(-ENOMEM),
							  devno, NULL, "cl-x"),
			    ERR_PTR(-EINVAL));
	KUNIT_EXPECT_PTR_EQ(test, ddm_class_device_create(cls, 0, NULL,
							  "cl-x"),
			    ERR_PTR(-EINVAL));
	/* A device that was never registered, or is unregistered. */
	KUNIT_EXPECT_PTR_EQ(test, ddm_class_device_create(cls, devno,
							  &unadded, "cl-x"),
			    ERR_PTR(-ENODEV));
	ddm_device_unregister(&d->dev);
	/* Released: the queued event holds the device's object. */
	cl_expect_event(test, DDM_UEVENT_REMOVE, dobj);
	KUNIT_EXPECT_PTR_EQ(test, ddm_class_device_create(cls, devno,
							  &d->dev, "cl-x"),
			    ERR_PTR(-ENODEV));
	cl_expect_no_event(test);
	KUNIT_EXPECT_NULL(test, ddm_class_find_device(cls, devno));
	ddm_class_destroy(cls);
	fx_teardown(test, c, 1);
}

static void ddm_class_device_destroy_errors(struct kunit *test)
{
	struct ddm_class *cls = cl_create(test, "cl-class");

	KUNIT_EXPECT_EQ(test, ddm_class_device_destroy(cls,
						DDM_MKDEV(CL_MAJOR, 1)), -ENOENT);
	KUNIT_EXPECT_EQ(test, ddm_class_device_destroy(NULL,
						DDM_MKDEV(CL_MAJOR, 1)), -EINVAL);
	KUNIT_EXPECT_EQ(test, ddm_class_device_destroy(ERR_PTR(-ENOMEM),
						DDM_MKDEV(CL_MAJOR, 1)), -EINVAL);
	cl_expect_no_event(test);
	ddm_class_destroy(cls);
}

/* Holding a reference keeps the structure, and every call says so. */
static void ddm_class_destroyed_class_refuses(struct kunit *test)
{
	struct ddm_class *cls = cl_create(test, "cl-class");
	ddm_devt_t devno = DDM_MKDEV(CL_MAJOR, 1);

	ddm_class_get(cls);
	ddm_class_destroy(cls);
	cl_expect_event(test, DDM_UEVENT_REMOVE, &cls->obj);
	KUNIT_EXPECT_FALSE(test, ddm_object_is_added(&cls->obj));
	KUNIT_EXPECT_PTR_EQ(test, ddm_class_device_create(cls, devno, NULL,
							  "cl-late"),
			    ERR_PTR(-ENODEV));
	KUNIT_EXPECT_EQ(test, ddm_class_device_destroy(cls, devno), -ENODEV);
	KUNIT_EXPECT_NULL(test, ddm_class_find_device(cls, devno));
	cl_expect_no_event(test);
	ddm_class_put(cls);
}

/* --- concurrency --------------------------------------------------------- */

#define CL_RACE_DEVNOS	4
#define CL_RACE_ROUNDS	1000
#define CL_RACE_MS	2000	/* or fewer rounds, on a slow machine or tool */

struct cl_racer {
	struct ddm_class *cls;
	struct completion *go;
	atomic_t *started;
	struct completion done;
	int rounds, created, refused, errors;
};

/*
 * Create and destroy the same few numbers as the other racer: a number
 * is either ours (we destroy it) or the other's (-EEXIST).
 */
static int cl_racer_thread(void *data)
{
	struct cl_racer *r = data;
	struct ddm_class_device *cd;
	unsigned long end;
	ddm_devt_t devno;
	int i;

	wait_for_completion(r->go);
	/* Start together: a racer done before the other wakes tests nothing. */
	atomic_inc(r->started);
	while (atomic_read(r->started) < 2)
		cond_resched();
	end = jiffies + msecs_to_jiffies(CL_RACE_MS);
	for (i = 0; i < CL_RACE_ROUNDS && time_before(jiffies, end); i++) {
		r->rounds++;
		devno = DDM_MKDEV(CL_MAJOR, i % CL_RACE_DEVNOS);
		cd = ddm_class_device_create(r->cls, devno, NULL, "cl-race");
		if (cd == ERR_PTR(-EEXIST)) {
			r->refused++;
			continue;
		}
		if (IS_ERR(cd) || ddm_class_device_destroy(r->cls, devno)) {
			r->errors++;
			continue;
		}
		r->created++;
	}
	complete(&r->done);
	fx_park();
	return 0;
}

/* Per number, listeners see "add" and "remove" strictly alternate. */
static void ddm_class_concurrent_create_destroy(struct kunit *test)
{
	struct ddm_class *cls = cl_create(test, "cl-race");
	struct cl_racer *r = kunit_kcalloc(test, 2, sizeof(*r), GFP_KERNEL);
	bool present[CL_RACE_DEVNOS] = { };
	struct completion go;
	atomic_t started = ATOMIC_INIT(0);
	struct task_struct *t[2];
	struct ddm_uevent *ev;
	int i, adds = 0, removes = 0, disorder = 0;

	KUNIT_ASSERT_NOT_NULL(test, r);
	init_completion(&go);
	for (i = 0; i < 2; i++) {
		r[i].cls = cls;
		r[i].go = &go;
		r[i].started = &started;
		init_completion(&r[i].done);
		t[i] = kthread_run(cl_racer_thread, &r[i], "cl-racer%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(t[i]));
	}
	complete_all(&go);
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&r[i].done,
					msecs_to_jiffies(5000)), 0UL);
		kthread_stop(t[i]);
		KUNIT_EXPECT_EQ(test, r[i].errors, 0);
	}
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_GT(test, r[i].rounds, 0);
		KUNIT_EXPECT_EQ(test, r[i].created + r[i].refused, r[i].rounds);
	}

	while (!IS_ERR(ev = ddm_listener_poll(fx_listener(test)))) {
		i = DDM_MINOR(ev->devt);
		if (ev->action == DDM_UEVENT_ADD) {
			adds++;
			disorder += present[i];
			present[i] = true;
		} else if (ev->action == DDM_UEVENT_REMOVE) {
			removes++;
			disorder += !present[i];
			present[i] = false;
		}
		ddm_uevent_free(ev);
	}
	kunit_info(test, "rounds %d+%d, created %d+%d, refused %d+%d, events %d+%d",
		   r[0].rounds, r[1].rounds, r[0].created, r[1].created,
		   r[0].refused, r[1].refused, adds, removes);
	KUNIT_EXPECT_EQ(test, adds, r[0].created + r[1].created);
	KUNIT_EXPECT_EQ(test, removes, adds);
	KUNIT_EXPECT_EQ(test, disorder, 0);
	ddm_class_destroy(cls);
}

static struct kunit_case ddm_class_test_cases[] = {
	KUNIT_CASE(ddm_class_create_and_destroy),
	KUNIT_CASE(ddm_class_create_bad_name),
	KUNIT_CASE(ddm_class_device_create_dev_attr),
	KUNIT_CASE(ddm_class_device_device_link),
	KUNIT_CASE(ddm_class_device_duplicate_devno),
	KUNIT_CASE(ddm_class_find_device_by_devno),
	KUNIT_CASE(ddm_class_device_create_errors),
	KUNIT_CASE(ddm_class_device_destroy_errors),
	KUNIT_CASE(ddm_class_destroyed_class_refuses),
	KUNIT_CASE(ddm_class_concurrent_create_destroy),
	{}
};

static struct kunit_suite ddm_class_test_suite = {
	.name = "ddm_class",
	.init = fx_listener_init,
	.exit = fx_listener_exit,
	.test_cases = ddm_class_test_cases,
};

kunit_test_suites(&ddm_class_test_suite);

MODULE_LICENSE("GPL");
