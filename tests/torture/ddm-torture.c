// SPDX-License-Identifier: GPL-2.0
/*
 * ddm-torture: device and driver register/unregister, unbind/rebind and
 * suspend/resume churn on one ddm bus, with bus and driver walks running
 * alongside, in the style of the kernel's locktorture.
 *
 * Each device matches exactly one driver slot (id % DRIVERS).  Devices
 * are freed (poisoned) by their release callback.  Every driver callback
 * counts itself in and out of its device.
 *
 * Invariants, checked continuously and counted:
 *  - at most one driver call in flight per device;
 *  - probe only on an unbound device, remove only on a bound one (no
 *    double bind, no double ->remove());
 *  - walks never see a freed device (its magic is intact);
 *  - at every quiescent point (the checker pauses the churn every
 *    300 ms): every device whose driver is registered is bound to it
 *    (no device left unbound), and probes == removes + bound devices;
 *  - at the end everything is released: no device, no reference left.
 * A driver unregister that deadlocks shows as the shim's hung-task
 * report, which ends the run as an error.
 *
 *   ddm-torture [--duration-ms N] [--threads N] [--seed N]
 *              [--sched-permille N] [--keep-going]
 */
#define _GNU_SOURCE	/* pthread_rwlockattr_setkind_np() */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <linux/atomic.h>
#include <linux/ddm.h>
#include <linux/delay.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <shim/shim.h>

#include "torture.h"

#define DEV_MAGIC	0x44455631u	/* "DEV1" */
#define DEVICES		24
#define DRIVERS		3
#define FLAKY_EVERY	7		/* ids divisible by this fail probe */

struct tdev {
	unsigned int magic;
	unsigned int id;
	atomic_t in_call;		/* driver callbacks running now */
	atomic_t bound;			/* 1 between probe and remove */
	char name[16];
	struct ddm_device dev;
};

struct tdrv {
	struct ddm_driver drv;
	struct mutex reg_lock;		/* register/unregister and walks */
	bool registered;
	char name[16];
};

static struct {
	unsigned int duration_ms, threads, permille;
	unsigned long long seed;
} cfg = { 3000, 3, 100, 0 };

static struct ddm_bus bus;
static struct tdrv drivers[DRIVERS];
static DEFINE_SPINLOCK(slot_lock);
static struct tdev *slots[DEVICES];
static pthread_rwlock_t churn;	/* churn: readers; the checker: writer */
static atomic_long_t ops, walks, checks, probes, removes, live_devices;
static atomic_t next_id = ATOMIC_INIT(0), stop = ATOMIC_INIT(0);

static void print_summary(void)
{
	printf("SUMMARY: seed=%llu duration_ms=%u threads=%u ops=%ld walks=%ld checks=%ld probes=%ld removes=%ld errors=%ld\n",
	       cfg.seed, cfg.duration_ms, cfg.threads, atomic_long_read(&ops),
	       atomic_long_read(&walks), atomic_long_read(&checks),
	       atomic_long_read(&probes), atomic_long_read(&removes),
	       atomic_long_read(&torture.errors));
	fflush(stdout);
}

static struct tdev *to_tdev(struct ddm_device *dev)
{
	return container_of(dev, struct tdev, dev);
}

static struct tdev *checked(struct ddm_device *dev, const char *where)
{
	struct tdev *t = to_tdev(dev);

	if (READ_ONCE(t->magic) != DEV_MAGIC)
		error("%s: device %p is freed", where, (void *)dev);
	return t;
}

/* Every driver callback runs between these two: one at a time per device. */
static struct tdev *call_enter(struct ddm_device *dev, const char *what)
{
	struct tdev *t = checked(dev, what);

	if (atomic_inc_return(&t->in_call) != 1)
		error("%s on %s while another driver call runs", what, t->name);
	return t;
}

static void call_exit(struct tdev *t)
{
	atomic_dec(&t->in_call);
}

static int tdrv_probe(struct ddm_device *dev)
{
	struct tdev *t = call_enter(dev, "probe");
	int ret = 0;

	if (t->id % FLAKY_EVERY == 0) {
		ret = -EIO;	/* reported by the core, device stays unbound */
	} else if (atomic_xchg(&t->bound, 1)) {
		error("probe of %s, which is bound already", t->name);
	} else {
		atomic_long_inc(&probes);
		if (t->id % 5 == 0)
			msleep(1);	/* a probe that sleeps */
	}
	call_exit(t);
	return ret;
}

static void tdrv_remove(struct ddm_device *dev)
{
	struct tdev *t = call_enter(dev, "remove");

	if (!atomic_xchg(&t->bound, 0))
		error("remove of %s, which is not bound", t->name);
	else
		atomic_long_inc(&removes);
	call_exit(t);
}

static int tdrv_suspend(struct ddm_device *dev)
{
	struct tdev *t = call_enter(dev, "suspend");

	if (!atomic_read(&t->bound))
		error("suspend of %s, which is not bound", t->name);
	call_exit(t);
	return 0;
}

static int tdrv_resume(struct ddm_device *dev)
{
	struct tdev *t = call_enter(dev, "resume");

	call_exit(t);
	return 0;
}

static int bus_match(struct ddm_device *dev, struct ddm_driver *drv)
{
	struct tdrv *d = container_of(drv, struct tdrv, drv);

	return checked(dev, "match")->id % DRIVERS == (unsigned int)(d - drivers);
}

static void tdev_release(struct ddm_device *dev)
{
	struct tdev *t = checked(dev, "release");

	if (atomic_read(&t->bound))
		error("%s released while bound", t->name);
	atomic_long_dec(&live_devices);
	kfree(t);	/* poisons it */
}

/* --- churn ---------------------------------------------------------------- */

static void toggle_device(unsigned int slot)
{
	struct tdev *t;

	spin_lock(&slot_lock);
	t = slots[slot];
	slots[slot] = NULL;
	spin_unlock(&slot_lock);
	if (t) {
		ddm_device_unregister(&t->dev);
		return;
	}
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return;
	t->magic = DEV_MAGIC;
	t->id = atomic_inc_return(&next_id);
	snprintf(t->name, sizeof(t->name), "dev%u", t->id);
	t->dev.name = t->name;
	t->dev.bus = &bus;
	t->dev.release = tdev_release;
	atomic_long_inc(&live_devices);
	if (ddm_device_register(&t->dev)) {
		error("register of %s failed", t->name);
		return;
	}
	spin_lock(&slot_lock);
	if (!slots[slot]) {
		slots[slot] = t;
		t = NULL;
	}
	spin_unlock(&slot_lock);
	if (t)		/* the slot was filled meanwhile */
		ddm_device_unregister(&t->dev);
}

static void toggle_driver(unsigned int i)
{
	struct tdrv *d = &drivers[i];

	mutex_lock(&d->reg_lock);
	if (d->registered)
		ddm_driver_unregister(&d->drv);
	else if (ddm_driver_register(&d->drv))
		error("register of %s failed", d->name);
	d->registered = !d->registered;
	mutex_unlock(&d->reg_lock);
}

/* A reference on the device in @slot, or NULL. */
static struct tdev *get_slot(unsigned int slot)
{
	struct tdev *t;

	spin_lock(&slot_lock);
	t = slots[slot];
	if (t)
		ddm_get_device(&t->dev);
	spin_unlock(&slot_lock);
	return t;
}

static void rebind(struct ddm_device *dev)
{
	ddm_device_release_driver(dev);
	ddm_device_attach(dev);
}

static void suspend_resume(struct ddm_device *dev)
{
	ddm_device_suspend(dev);
	ddm_device_resume(dev);
}

/* @op on the device in @slot, if any, pinned while it runs. */
static void on_slot(unsigned int slot, void (*op)(struct ddm_device *dev))
{
	struct tdev *t = get_slot(slot);

	if (!t)
		return;
	op(&t->dev);
	ddm_put_device(&t->dev);
}

static int count_dev(struct ddm_device *dev, void *data)
{
	checked(dev, "bus walk");
	(*(int *)data)++;
	return 0;
}

static int stop_at_third(struct ddm_device *dev, void *data)
{
	checked(dev, "bus walk");
	return ++(*(int *)data) == 3;
}

static int count_drv(struct ddm_driver *drv, void *data)
{
	(*(int *)data)++;
	return 0;
}

static void walk(unsigned long long r)
{
	struct tdrv *d = &drivers[(r >> 8) % DRIVERS];
	struct tdev *start = get_slot((r >> 16) % DEVICES);
	int n = 0;

	switch (r % 4) {
	case 0:
		ddm_bus_for_each_dev(&bus, NULL, &n, count_dev);
		break;
	case 1:
		ddm_bus_for_each_dev(&bus, start ? &start->dev : NULL, &n, stop_at_third);
		break;
	case 2:
		ddm_bus_for_each_drv(&bus, NULL, &n, count_drv);
		break;
	default:
		mutex_lock(&d->reg_lock);	/* its list exists while registered */
		if (d->registered)
			ddm_driver_for_each_device(&d->drv, NULL, &n, count_dev);
		mutex_unlock(&d->reg_lock);
	}
	if (start)
		ddm_put_device(&start->dev);
	atomic_long_inc(&walks);
}

static int churn_fn(void *data)
{
	unsigned long long seed = cfg.seed * 131 + (unsigned long)data;

	while (!atomic_read(&stop)) {
		unsigned long long r = torture_rnd(&seed);

		pthread_rwlock_rdlock(&churn);
		switch (r % 8) {
		case 0: case 1:
			toggle_device((r >> 8) % DEVICES);
			break;
		case 2:
			toggle_driver((r >> 8) % DRIVERS);
			break;
		case 3:
			on_slot((r >> 8) % DEVICES, rebind);
			break;
		case 4:
			on_slot((r >> 8) % DEVICES, suspend_resume);
			break;
		default:
			walk(r >> 3);
		}
		pthread_rwlock_unlock(&churn);
		atomic_long_inc(&ops);
	}
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

/* --- quiescent checks ------------------------------------------------------ */

/*
 * With the churn paused nothing changes, but each field is still read
 * under the lock that guards it, as the code under test would, so that
 * helgrind and DRD see no race in the checker itself.
 */
static void check_quiescent(void)
{
	struct tdev *devs[DEVICES];
	bool registered[DRIVERS];
	long bound = 0;
	unsigned int i;

	for (i = 0; i < DRIVERS; i++) {
		mutex_lock(&drivers[i].reg_lock);
		registered[i] = drivers[i].registered;
		mutex_unlock(&drivers[i].reg_lock);
	}
	for (i = 0; i < DEVICES; i++)
		devs[i] = get_slot(i);
	for (i = 0; i < DEVICES; i++) {
		struct tdev *t = devs[i];
		unsigned int drv;
		bool unbound;

		if (!t)
			continue;
		bound += atomic_read(&t->bound);
		drv = t->id % DRIVERS;
		ddm_device_lock(&t->dev);
		unbound = t->dev.driver != &drivers[drv].drv;
		ddm_device_unlock(&t->dev);
		if (registered[drv] && t->id % FLAKY_EVERY && unbound)
			error("%s left unbound although %s is registered", t->name,
			      drivers[drv].name);
		ddm_put_device(&t->dev);
	}
	if (atomic_long_read(&probes) != atomic_long_read(&removes) + bound)
		error("probes %ld != removes %ld + bound %ld", atomic_long_read(&probes),
		      atomic_long_read(&removes), bound);
	atomic_long_inc(&checks);
}

static int checker_fn(void *data)
{
	while (!atomic_read(&stop)) {
		msleep(300);
		pthread_rwlock_wrlock(&churn);
		check_quiescent();
		pthread_rwlock_unlock(&churn);
	}
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

static void parse_args(int argc, char **argv)
{
	const struct torture_opt opts[] = {
		TORTURE_TIMED_RUN_OPTS(cfg),
		{ "threads", TORTURE_UINT, &cfg.threads },
		{ }
	};

	torture_parse_args(argc, argv, opts);
	if (!cfg.threads || cfg.threads > 32)
		torture_usage();
	if (!cfg.seed)
		cfg.seed = torture_default_seed();
}

int main(int argc, char **argv)
{
	struct task_struct *threads[40];
	pthread_rwlockattr_t attr;
	unsigned int i, n = 0;

	parse_args(argc, argv);
	torture_begin("ddm-torture", print_summary, cfg.seed, cfg.permille);
	/* glibc prefers readers by default: the checker would never get in. */
	pthread_rwlockattr_init(&attr);
	pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&churn, &attr);

	bus.name = "torture";
	bus.match = bus_match;
	if (ddm_bus_register(&bus))
		error("bus register failed");
	for (i = 0; i < DRIVERS; i++) {
		struct tdrv *d = &drivers[i];

		snprintf(d->name, sizeof(d->name), "drv%u", i);
		d->drv.name = d->name;
		d->drv.bus = &bus;
		d->drv.probe = tdrv_probe;
		d->drv.remove = tdrv_remove;
		d->drv.suspend = tdrv_suspend;
		d->drv.resume = tdrv_resume;
		mutex_init(&d->reg_lock);
	}
	for (i = 0; i < cfg.threads; i++)
		threads[n++] = kthread_run(churn_fn, (void *)(unsigned long)i, "churn-%u", i);
	threads[n++] = kthread_run(checker_fn, NULL, "checker");
	torture_run_threads(cfg.duration_ms, &stop, threads, n);
	check_quiescent();
	for (i = 0; i < DEVICES; i++)
		if (slots[i])
			ddm_device_unregister(&slots[i]->dev);
	for (i = 0; i < DRIVERS; i++)
		if (drivers[i].registered)
			ddm_driver_unregister(&drivers[i].drv);
	ddm_bus_unregister(&bus);
	if (atomic_long_read(&probes) != atomic_long_read(&removes))
		error("at the end: probes %ld != removes %ld", atomic_long_read(&probes),
		      atomic_long_read(&removes));
	if (atomic_long_read(&live_devices))
		error("at the end: %ld devices never released", atomic_long_read(&live_devices));
	if (torture_runtime_end())
		error("the shim's end-of-run checks failed");
	print_summary();
	return atomic_long_read(&torture.errors) ? 1 : 0;
}
