// SPDX-License-Identifier: GPL-2.0
/*
 * ddm-event-order: lesson H2 measured.  Round after round, one task
 * registers a driver while another adds a device the driver matches,
 * under seeded schedule points, and a udev-like listener checks the
 * order of what it hears: a "bind" must come after the "add" of the
 * device it binds and after the "add" of the driver its `driver` link
 * names (the hotplug split's promise: nobody is told of a binding of an
 * object it was never told exists).
 *
 * Before H2 the device was on the bus list before its "add", so the
 * driver's attach could probe and bind it first; and the driver was on
 * the bus list before its own "add".  tests/defects/hotplug/H2-*.patch
 * puts that back; this program then counts the out-of-order binds.
 *
 *   ddm-event-order [--races N] [--seed N] [--sched-permille N]
 *
 * Prints one SUMMARY line with the counts; exits 1 if any bind came out
 * of order, if a round ended unbound, or on any shim report.
 */
#include <stdio.h>
#include <stdlib.h>

#include <linux/atomic.h>
#include <linux/ddm.h>
#include <linux/ddm_object.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <shim/shim.h>

#include "torture.h"

#define MAX_LIVE		8	/* objects added and not removed, at most */

static struct ddm_bus bus = { .name = "eo-bus" };

static struct {
	unsigned long races;
	atomic_t round;			/* the round the racers may run */
	struct completion drv_go, dev_go, drv_done, dev_done, heard;
	struct ddm_driver *drv;
	struct ddm_device *dev;
	/* The listener's counts; read by main once it has caught up. */
	atomic_long_t events, binds, dev_before_add, drv_before_add;
	unsigned long unbound;
} eo;

static int eo_probe(struct ddm_device *dev)
{
	return 0;
}

static void eo_release(struct ddm_device *dev)
{
	kfree(dev);
}

/* --- the listener -------------------------------------------------------- */

struct eo_seen {
	struct ddm_object *live[MAX_LIVE];	/* their "add" was heard */
};

static bool eo_is_live(struct eo_seen *s, struct ddm_object *obj)
{
	int i;

	for (i = 0; i < MAX_LIVE; i++)
		if (s->live[i] == obj)
			return true;
	return false;
}

static void eo_set_live(struct eo_seen *s, struct ddm_object *obj, bool live)
{
	int i;

	for (i = 0; i < MAX_LIVE; i++) {
		if (live ? !s->live[i] : s->live[i] == obj) {
			s->live[i] = live ? obj : NULL;
			return;
		}
	}
	if (live)
		error("more than %d objects live", MAX_LIVE);
}

static void eo_check_bind(struct eo_seen *s, struct ddm_uevent *ev)
{
	struct ddm_object *drv_obj;

	atomic_long_inc(&eo.binds);
	if (!eo_is_live(s, ev->obj))
		atomic_long_inc(&eo.dev_before_add);
	/* main unbinds only after this bind was heard: the link is there. */
	drv_obj = ddm_object_get_link(ev->obj, "driver");
	if (IS_ERR(drv_obj)) {
		error("bind of %s without a driver link", ddm_object_name(ev->obj));
		return;
	}
	if (!eo_is_live(s, drv_obj))
		atomic_long_inc(&eo.drv_before_add);
	ddm_object_put(drv_obj);
}

static int eo_listener(void *data)
{
	struct ddm_listener *l = data;
	struct eo_seen seen = { };
	struct ddm_uevent *ev;

	while (!IS_ERR(ev = ddm_listener_next(l))) {
		switch (ev->action) {
		case DDM_UEVENT_ADD:
			eo_set_live(&seen, ev->obj, true);
			break;
		case DDM_UEVENT_BIND:
			eo_check_bind(&seen, ev);
			break;
		case DDM_UEVENT_REMOVE:
			eo_set_live(&seen, ev->obj, false);
			break;
		default:
			break;
		}
		ddm_uevent_free(ev);
		atomic_long_inc(&eo.events);
		complete(&eo.heard);
	}
	while (!kthread_should_stop())
		schedule_timeout_uninterruptible(1);
	return 0;
}

/* --- the racers ----------------------------------------------------------- */

/* Sleep until main says go (completions: a yield loop starves on a busy machine). */
static bool eo_wait_go(struct completion *go)
{
	while (!wait_for_completion_timeout(go, msecs_to_jiffies(100)))
		if (kthread_should_stop())
			return false;
	return !kthread_should_stop();
}

/* One racer: at each go, its registration (the driver's or the device's). */
struct eo_racer {
	struct completion *go, *done;
	int (*reg)(void);
	const char *what;
};

static int eo_register_driver(void)
{
	return ddm_driver_register(eo.drv);
}

static int eo_register_device(void)
{
	return ddm_device_register(eo.dev);
}

static int eo_racer_fn(void *data)
{
	struct eo_racer *r = data;

	while (eo_wait_go(r->go)) {
		if (r->reg())
			error("round %d: %s register failed",
			      atomic_read(&eo.round), r->what);
		complete(r->done);
	}
	return 0;
}

static void eo_wait_events(long n)
{
	while (atomic_long_read(&eo.events) < n)
		wait_for_completion(&eo.heard);
}

static void print_summary(void)
{
	long out = atomic_long_read(&eo.dev_before_add) +
		   atomic_long_read(&eo.drv_before_add);

	printf("SUMMARY: ddm-event-order races=%lu events=%ld binds=%ld out_of_order=%ld (device bound before its add: %ld, bound to a driver before its add: %ld) unbound=%lu errors=%ld\n",
	       (unsigned long)atomic_read(&eo.round),
	       atomic_long_read(&eo.events), atomic_long_read(&eo.binds), out,
	       atomic_long_read(&eo.dev_before_add),
	       atomic_long_read(&eo.drv_before_add), eo.unbound,
	       atomic_long_read(&torture.errors) + out);
}

int main(int argc, char **argv)
{
	unsigned long long seed = torture_default_seed();
	unsigned int permille = 50;
	const struct torture_opt opts[] = {
		{ "races", TORTURE_ULONG, &eo.races },
		{ "seed", TORTURE_ULLONG, &seed },
		{ "sched-permille", TORTURE_UINT, &permille },
		{ }
	};
	struct task_struct *listener, *drv_racer, *dev_racer;
	struct eo_racer drv_side = { &eo.drv_go, &eo.drv_done,
				     eo_register_driver, "driver" };
	struct eo_racer dev_side = { &eo.dev_go, &eo.dev_done,
				     eo_register_device, "device" };
	struct ddm_listener l;
	unsigned long r;
	long heard = 0;
	bool bound;

	eo.races = 100000;
	init_completion(&eo.drv_go);
	init_completion(&eo.dev_go);
	init_completion(&eo.drv_done);
	init_completion(&eo.dev_done);
	init_completion(&eo.heard);
	torture_parse_args(argc, argv, opts);
	torture_begin("ddm-event-order", print_summary, seed, permille);
	if (ddm_bus_register(&bus))
		return 1;
	ddm_listener_init(&l, "eo-udev");
	if (ddm_listener_subscribe(&l))
		return 1;
	eo.drv = kzalloc(sizeof(*eo.drv), GFP_KERNEL);
	if (!eo.drv)
		return 1;
	eo.drv->name = "eo-drv";
	eo.drv->bus = &bus;
	eo.drv->probe = eo_probe;
	listener = kthread_run(eo_listener, &l, "eo-udev");
	drv_racer = kthread_run(eo_racer_fn, &drv_side, "eo-drv");
	dev_racer = kthread_run(eo_racer_fn, &dev_side, "eo-dev");
	if (IS_ERR(listener) || IS_ERR(drv_racer) || IS_ERR(dev_racer))
		return 1;

	for (r = 1; r <= eo.races; r++) {
		eo.dev = kzalloc(sizeof(*eo.dev), GFP_KERNEL);
		if (!eo.dev)
			return 1;
		eo.dev->name = "eo-dev";
		eo.dev->bus = &bus;
		eo.dev->release = eo_release;
		atomic_set(&eo.round, (int)r);
		complete(&eo.drv_go);
		complete(&eo.dev_go);
		wait_for_completion(&eo.drv_done);
		wait_for_completion(&eo.dev_done);
		/* D2: whichever came first, they met. */
		bound = eo.dev->driver == eo.drv;
		if (!bound)
			eo.unbound++;
		/* Both adds, and the bind. */
		heard += 2 + bound;
		eo_wait_events(heard);
		ddm_device_unregister(eo.dev);		/* unbind, remove */
		ddm_driver_unregister(eo.drv);		/* remove */
		heard += bound + 2;
	}
	ddm_listener_unsubscribe(&l);
	kthread_stop(drv_racer);
	kthread_stop(dev_racer);
	kthread_stop(listener);
	kfree(eo.drv);
	ddm_listener_flush(&l);
	ddm_bus_unregister(&bus);
	torture_sched_points_off();
	if (eo.unbound)
		error("%lu rounds ended with the device unbound", eo.unbound);
	if (torture_runtime_end())
		error("end-of-run checks failed");
	print_summary();
	return atomic_long_read(&eo.dev_before_add) ||
	       atomic_long_read(&eo.drv_before_add) ||
	       atomic_long_read(&torture.errors);
}
