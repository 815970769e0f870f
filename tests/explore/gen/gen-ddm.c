// SPDX-License-Identifier: GPL-2.0
/*
 * The ddm family of generated scenarios: bus, driver and device register
 * and unregister, a device's add and delete apart from them, an explicit
 * unbind (release), attach and bind without probe, the bus's two list
 * walks and a driver's device walk, on the real lib/ddm/, and their
 * sequential model.
 *
 * Objects: one bus, registered but in the state "nobus" (no match
 * callback: every driver matches every device), devices d0 d1 ("g-d0"),
 * drivers r0 r1 ("g-r0"), each registered or not by the initial state.
 * Their memory lives until the teardown; a device's release only
 * records that it ran, so the check can say which devices were released.
 *
 * The model (ddm_explain()), reviewed against lib/ddm/ and
 * docs/lessons.md:
 *  - drv_reg (three events: claim, join, attach end): joins the tail
 *    of the bus's driver list; its attach may bind an added, unbound
 *    device at any moment until its end, by which every such device is
 *    bound (D2) unless it was bound meanwhile; a second
 *    register (also of a driver being unregistered) is -EBUSY and
 *    reported (D9).
 *  - drv_unreg (three events: the claim; leaving the list; the end,
 *    after which it may be registered again, a register before it being
 *    -EBUSY; its devices unbound one at a time in between): of a driver not
 *    registered it is reported and changes nothing (D9), "while it
 *    registers" between a register's claim and its end (D11).
 *  - dev_reg: claims the device, joins the tail of the device list,
 *    is announced and binds to a driver on the list, or stays unbound if
 *    there is none, and is added only when its add returns (four events;
 *    announced, a registering driver may bind it too).  Which
 *    driver: sequentially the first on the list, but a driver
 *    registering at the same time may take it first (its attach probes
 *    the device as soon as it is announced, H2), so the model lets it be
 *    any registered driver.  Twice, or after an unregister: -EBUSY,
 *    reported (D9).
 *  - dev_unreg: claims (three events: the claim; leaving the bus list;
 *    the unbind, which a walk of its driver's devices may still see
 *    between the two), drops the registration's
 *    reference (the device is released: nothing else holds it at the
 *    end); of a device not registered, reported and nothing changes
 *    (D9), "while it is being added" between a register's claim and its
 *    end (D12).
 *  - dev_add, dev_del: as dev_reg and dev_unreg, of a device the set-up
 *    initialised (for a dev_add) or registered; the caller keeps its
 *    reference, so the device is not released.
 *  - release: unbinds if bound.
 *  - bind (ddm_device_bind_driver() under the device lock, r0 preset
 *    when the device has no driver): bound already, 1; else bound to
 *    r0 without a probe, 0.
 *  - bus_reg, bus_unreg (two events: the claim and the end, D13): a
 *    second register, or an unregister of a bus not registered or
 *    being registered, is reported and changes nothing; an unregister
 *    of a bus with devices or drivers on it is reported at its end and
 *    leaves it registered.
 *  - attach (ddm_device_attach(), one event under the device lock): a
 *    device not announced yet is -EPROBE_DEFER, one not registered (or
 *    deleted) -ENODEV; a bound device stays bound, 1; else it binds to
 *    a driver on the list, 1, or to none if none is on it, 0.
 *  - the walks: gen_walk_ok() over the device list and the driver list;
 *    walk_drv_devs over a driver's device list, which a device joins when
 *    it binds (any of the binds above) and leaves when it unbinds.
 * Every probe is paired with a remove or a bound device, and every call
 * into a driver holds the device lock.
 *
 * Outside ddm's contract, so never generated: a release or attach of a
 * device no reference is held on (one its unregister may drop), or one never
 * initialised (its lock is not); a bind of a device not added throughout,
 * or to r0 not registered throughout (D7: its caller keeps it
 * registered); a walk of the drivers while one driver is unregistered
 * and registered again (a walk may meet both of its incarnations, which
 * the model does not tell apart); a bus register or unregister beside
 * anything but another one and the walks of a registered bus (a bus
 * comes before its devices and drivers and goes after them: module init
 * and exit).
 */
#include <linux/atomic.h>
#include <linux/ddm.h>
#include <linux/errno.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "gen.h"

enum {
	D_DRV_REG, D_DRV_UNREG, D_DEV_REG, D_DEV_UNREG, D_RELEASE,
	D_WALK_DEVS, D_WALK_DRVS, D_ATTACH, D_WALK_DRV_DEVS,
	D_DEV_ADD, D_DEV_DEL, D_BIND, D_BUS_REG, D_BUS_UNREG, D_NR
};

static const struct gen_opdef ddm_ops[D_NR] = {
	/* Claims the driver; joins the bus list; attaches, then is registered. */
	[D_DRV_REG]	= { "drv_reg", GEN_ARG_DRV, false, 3 },
	/* Claims; leaves the list and unbinds; then may be registered again. */
	[D_DRV_UNREG]	= { "drv_unreg", GEN_ARG_DRV, false, 3 },
	/* Claims the device; joins the bus list; is announced and attached. */
	[D_DEV_REG]	= { "dev_reg", GEN_ARG_DEV, false, 4 },
	/* Claims (deleted: no probe takes it); leaves, unbinds, is released. */
	[D_DEV_UNREG]	= { "dev_unreg", GEN_ARG_DEV, false, 3 },
	[D_RELEASE]	= { "release", GEN_ARG_DEV },
	[D_WALK_DEVS]	= { "walk_devs", GEN_ARG_NONE, true },
	[D_WALK_DRVS]	= { "walk_drvs", GEN_ARG_NONE, true },
	/* An explicit attach under the device lock: 1 if bound after it. */
	[D_ATTACH]	= { "attach", GEN_ARG_DEV },
	/* ddm_driver_for_each_device(): the devices bound to the driver. */
	[D_WALK_DRV_DEVS] = { "walk_drv_devs", GEN_ARG_DRV, true },
	/* dev_reg and dev_unreg apart: of a device the set-up initialised, its reference kept. */
	[D_DEV_ADD]	= { "dev_add", GEN_ARG_DEV, false, 4 },
	[D_DEV_DEL]	= { "dev_del", GEN_ARG_DEV, false, 3 },
	/* To r0 without a probe (ddm_device_bind_driver()): 1 if bound already. */
	[D_BIND]	= { "bind", GEN_ARG_DEV },
	/* Claim, then registered (or unregistered); reported if it loses. */
	[D_BUS_REG]	= { "bus_reg", GEN_ARG_NONE, false, 2 },
	[D_BUS_UNREG]	= { "bus_unreg", GEN_ARG_NONE, false, 2 },
};

/* What the initial state registers, in this order (nobus: not even the bus). */
enum { S_NONE, S_R0, S_D0, S_D0_R0, S_D0D1_R0, S_D0_R0R1, S_NOBUS, S_NR };
static const char *const ddm_states[S_NR] = {
	[S_NOBUS]	= "nobus",
	[S_NONE]	= "none",
	[S_R0]		= "r0",
	[S_D0]		= "d0",
	[S_D0_R0]	= "d0-r0",
	[S_D0D1_R0]	= "d0d1-r0",
	[S_D0_R0R1]	= "d0-r0r1",
};

/* Registered by the set-up: a bit per object. */
static const struct { unsigned int devs, drvs; } ddm_init[S_NR] = {
	[S_NONE]	= { 0, 0 },
	[S_R0]		= { 0, 1 },
	[S_D0]		= { 1, 0 },
	[S_D0_R0]	= { 1, 1 },
	[S_D0D1_R0]	= { 3, 1 },
	[S_D0_R0R1]	= { 1, 3 },
	[S_NOBUS]	= { 0, 0 },
};

enum {
	DW_DRV_TWICE0, DW_DRV_TWICE1, DW_DRV_WHILE0, DW_DRV_WHILE1,
	DW_DRV_NOTREG0, DW_DRV_NOTREG1, DW_DEV_TWICE0, DW_DEV_TWICE1,
	DW_DEV_NOTREG0, DW_DEV_NOTREG1, DW_DEV_WHILE0, DW_DEV_WHILE1,
	DW_BUS_TWICE, DW_BUS_NOTREG, DW_BUS_BUSY, DW_BUS_WHILE, DW_NR
};
static const char *const ddm_kinds[DW_NR] = {
	"driver g-r0 registered twice", "driver g-r1 registered twice",
	"driver g-r0 unregistered while it registers",
	"driver g-r1 unregistered while it registers",
	"driver g-r0 is not registered", "driver g-r1 is not registered",
	"device g-d0 registered twice", "device g-d1 registered twice",
	"device g-d0 deleted but not registered",
	"device g-d1 deleted but not registered",
	"device g-d0 deleted while it is being added",
	"device g-d1 deleted while it is being added",
	"bus g-bus registered twice", "bus g-bus is not registered",
	"bus g-bus unregistered with devices or drivers on it",
	"bus g-bus unregistered while it registers",
};

struct gdrv {
	struct ddm_driver drv;
	int id;
	atomic_t probes, removes;
};

struct gdev {
	struct ddm_device dev;
	int id;
	bool initialised;	/* by the set-up, for a dev_add: its reference ours */
	bool released;
};

struct dgen {
	struct ddm_bus bus;
	struct gdrv *drv[2];
	struct gdev *dev[2];
	atomic_t unlocked;	/* driver calls without the device lock */
};

static const char *const dev_names[2] = { "g-d0", "g-d1" };
static const char *const drv_names[2] = { "g-r0", "g-r1" };

static int ddm_targets(int state, enum gen_arg arg)
{
	return 2;
}

static bool uses(const struct gen_spec *s, int kind, int arg)
{
	int i;

	for (i = 0; i < s->nops; i++)
		if (s->op[i].kind == kind && s->op[i].arg == arg)
			return true;
	return false;
}

static bool is_bus_op(int kind)
{
	return kind == D_BUS_REG || kind == D_BUS_UNREG;
}

/*
 * Does the scenario's caller hold a reference on device @d throughout?
 * One it registered (or the set-up initialised for a dev_add), which no
 * unregister drops and no register may initialise again.
 */
static bool held(const struct gen_spec *s, int d)
{
	bool registered = ddm_init[s->state].devs & (1u << d);

	if (uses(s, D_DEV_UNREG, d))
		return false;
	return registered || (uses(s, D_DEV_ADD, d) && !uses(s, D_DEV_REG, d));
}

/* Released and bound again: device @d may be on a driver's list twice. */
static bool rebound(const struct gen_spec *s, int d)
{
	return uses(s, D_RELEASE, d) &&
	       (uses(s, D_ATTACH, d) || uses(s, D_BIND, d));
}

static bool ddm_allowed(const struct gen_spec *s)
{
	unsigned int devs = ddm_init[s->state].devs, drvs = ddm_init[s->state].drvs;
	bool bus_ops = false;
	int i;

	for (i = 0; i < s->nops; i++)
		bus_ops |= is_bus_op(s->op[i].kind);
	/*
	 * A bus is registered before anything is put on it and unregistered
	 * after all has left (module init and exit): its register and
	 * unregister race only each other and the walks of a registered bus.
	 */
	if (bus_ops || s->state == S_NOBUS) {
		for (i = 0; i < s->nops; i++) {
			int kind = s->op[i].kind;

			if (!is_bus_op(kind) &&
			    (s->state == S_NOBUS ||
			     (kind != D_WALK_DEVS && kind != D_WALK_DRVS)))
				return false;
		}
		return bus_ops;
	}
	for (i = 0; i < s->nops; i++) {
		const struct gen_op *op = &s->op[i];
		int d = op->arg;

		/* The caller of a release or an attach holds a reference on the device. */
		if ((op->kind == D_RELEASE || op->kind == D_ATTACH) && !held(s, d))
			return false;
		/*
		 * A bind: of a device added throughout, to r0 registered
		 * throughout (the caller keeps it registered, D7).
		 */
		if (op->kind == D_BIND &&
		    (!(devs & (1u << d)) || uses(s, D_DEV_UNREG, d) ||
		     uses(s, D_DEV_DEL, d) || uses(s, D_DEV_REG, d) ||
		     uses(s, D_DEV_ADD, d) || !(drvs & 1) ||
		     uses(s, D_DRV_REG, 0) || uses(s, D_DRV_UNREG, 0)))
			return false;
		/*
		 * A walk of a driver's devices: of a registered driver (its
		 * list is initialised), never registered again meanwhile, and
		 * no device on it twice (a release, then an attach or a bind).
		 */
		if (op->kind == D_WALK_DRV_DEVS &&
		    (!(drvs & (1u << d)) || uses(s, D_DRV_REG, d) ||
		     rebound(s, 0) || rebound(s, 1)))
			return false;
		if (op->kind == D_WALK_DRVS &&
		    ((uses(s, D_DRV_UNREG, 0) && uses(s, D_DRV_REG, 0)) ||
		     (uses(s, D_DRV_UNREG, 1) && uses(s, D_DRV_REG, 1))))
			return false;
	}
	/* Where d0 and d1 (r0 and r1) start alike, one of a mirrored pair. */
	return !gen_mirrored(s, GEN_ARG_DEV, !!(devs & 1) == !!(devs & 2)) &&
	       !gen_mirrored(s, GEN_ARG_DRV, !!(drvs & 1) == !!(drvs & 2));
}

/* The claims of one object: 1 a driver's, 2 a device's, 3 the bus's; 0 none. */
static int claim_of(int kind)
{
	switch (kind) {
	case D_DRV_REG:
	case D_DRV_UNREG:
		return 1;
	case D_DEV_REG:
	case D_DEV_UNREG:
	case D_DEV_ADD:
	case D_DEV_DEL:
		return 2;
	case D_BUS_REG:
	case D_BUS_UNREG:
		return 3;
	}
	return 0;
}

/*
 * A register of what is registered, an unregister of what is not (or of
 * a bus with something on it), or two registrations or unregistrations
 * of one object: in some order one of them loses its claim and is
 * reported (D9, D11, D12).
 */
static bool ddm_misuse(const struct gen_spec *s)
{
	const unsigned int devs = ddm_init[s->state].devs, drvs = ddm_init[s->state].drvs;
	int i, j;

	for (i = 0; i < s->nops; i++) {
		const struct gen_op *op = &s->op[i];
		int claim = claim_of(op->kind);
		bool reg = op->kind == D_DRV_REG || op->kind == D_DEV_REG ||
			   op->kind == D_DEV_ADD || op->kind == D_BUS_REG;
		bool registered;

		if (!claim)
			continue;
		if (claim == 3)
			registered = s->state != S_NOBUS;
		else
			registered = (claim == 1 ? drvs : devs) & (1u << op->arg);
		if (reg == registered || (claim == 3 && !reg && (devs || drvs)))
			return true;
		for (j = 0; j < s->nops; j++)
			if (j != i && s->op[j].arg == op->arg &&
			    claim_of(s->op[j].kind) == claim)
				return true;
	}
	return false;
}

static void g_locked(struct ddm_device *dev)
{
	struct dgen *g = container_of(dev->bus, struct dgen, bus);

	if (!mutex_is_locked(&dev->mutex))
		atomic_inc(&g->unlocked);
}

static int g_probe(struct ddm_device *dev)
{
	g_locked(dev);
	atomic_inc(&container_of(dev->driver, struct gdrv, drv)->probes);
	return 0;
}

static void g_remove(struct ddm_device *dev)
{
	g_locked(dev);
	if (dev->driver)
		atomic_inc(&container_of(dev->driver, struct gdrv, drv)->removes);
	else
		atomic_inc(&container_of(dev->bus, struct dgen, bus)->unlocked);
}

static void g_release(struct ddm_device *dev)
{
	container_of(dev, struct gdev, dev)->released = true;
}

static void *ddm_setup(const struct gen_spec *s)
{
	struct dgen *g = kzalloc(sizeof(*g), GFP_KERNEL);
	int i;

	g->bus.name = "g-bus";
	if (s->state != S_NOBUS)
		ddm_bus_register(&g->bus);
	for (i = 0; i < 2; i++) {
		g->drv[i] = kzalloc(sizeof(*g->drv[i]), GFP_KERNEL);
		g->drv[i]->id = i;
		g->drv[i]->drv.name = drv_names[i];
		g->drv[i]->drv.bus = &g->bus;
		g->drv[i]->drv.probe = g_probe;
		g->drv[i]->drv.remove = g_remove;
		g->dev[i] = kzalloc(sizeof(*g->dev[i]), GFP_KERNEL);
		g->dev[i]->id = i;
		g->dev[i]->dev.name = dev_names[i];
		g->dev[i]->dev.bus = &g->bus;
		g->dev[i]->dev.release = g_release;
	}
	/* Drivers first: the devices bind to r0 as they register. */
	for (i = 0; i < 2; i++)
		if (ddm_init[s->state].drvs & (1u << i))
			ddm_driver_register(&g->drv[i]->drv);
	for (i = 0; i < 2; i++)
		if (ddm_init[s->state].devs & (1u << i))
			ddm_device_register(&g->dev[i]->dev);
		else if (uses(s, D_DEV_ADD, i))
			g->dev[i]->initialised = true;
	for (i = 0; i < 2; i++)
		if (g->dev[i]->initialised)
			ddm_device_initialize(&g->dev[i]->dev);
	for (i = 0; i < DW_NR * s->nops; i++)
		gen_misuse_expect(ddm_kinds[i % DW_NR]);
	return g;
}

static int walk_dev_fn(struct ddm_device *dev, void *data)
{
	struct gen_rec *rec = data;

	if (rec->nseen < GEN_MAX_SEEN)
		rec->seen[rec->nseen++] = container_of(dev, struct gdev, dev)->id;
	return 0;
}

static int walk_drv_fn(struct ddm_driver *drv, void *data)
{
	struct gen_rec *rec = data;

	if (rec->nseen < GEN_MAX_SEEN)
		rec->seen[rec->nseen++] = container_of(drv, struct gdrv, drv)->id;
	return 0;
}

/* A driver's claim of a device it did not probe, the documented way. */
static int g_bind(struct dgen *g, struct gdev *gd)
{
	struct ddm_device *dev = &gd->dev;
	int ret = 1;

	ddm_device_lock(dev);
	if (!dev->driver) {
		dev->driver = &g->drv[0]->drv;
		ret = ddm_device_bind_driver(dev);
		if (ret)
			dev->driver = NULL;
		else	/* no probe, but a ->remove to come: counted as one */
			atomic_inc(&g->drv[0]->probes);
	}
	ddm_device_unlock(dev);
	return ret;
}

static void ddm_run(struct gen_run *r, int i)
{
	struct dgen *g = r->fctx;
	const struct gen_op *op = &r->spec.op[i];
	struct gen_rec *rec = &r->rec[i];

	switch (op->kind) {
	case D_DRV_REG:
		rec->ret = ddm_driver_register(&g->drv[op->arg]->drv);
		break;
	case D_DRV_UNREG:
		ddm_driver_unregister(&g->drv[op->arg]->drv);
		break;
	case D_DEV_REG:
		rec->ret = ddm_device_register(&g->dev[op->arg]->dev);
		break;
	case D_DEV_UNREG:
		ddm_device_unregister(&g->dev[op->arg]->dev);
		break;
	case D_RELEASE:
		ddm_device_release_driver(&g->dev[op->arg]->dev);
		break;
	case D_ATTACH:
		rec->ret = ddm_device_attach(&g->dev[op->arg]->dev);
		break;
	case D_WALK_DRV_DEVS:
		rec->ret = ddm_driver_for_each_device(&g->drv[op->arg]->drv, NULL,
						      rec, walk_dev_fn);
		break;
	case D_DEV_ADD:
		rec->ret = ddm_device_add(&g->dev[op->arg]->dev);
		break;
	case D_DEV_DEL:
		ddm_device_del(&g->dev[op->arg]->dev);
		break;
	case D_BIND:
		rec->ret = g_bind(g, g->dev[op->arg]);
		break;
	case D_BUS_REG:
		rec->ret = ddm_bus_register(&g->bus);
		break;
	case D_BUS_UNREG:
		ddm_bus_unregister(&g->bus);
		break;
	case D_WALK_DEVS:
		rec->ret = ddm_bus_for_each_dev(&g->bus, NULL, rec, walk_dev_fn);
		break;
	case D_WALK_DRVS:
		rec->ret = ddm_bus_for_each_drv(&g->bus, NULL, rec, walk_drv_fn);
		break;
	}
}

/*
 * attr: 0-1 bound driver + 1, 2-3 device state, 4-5 driver state,
 * 6 released (a bit per device) and the bus registered (bit 4),
 * 7 imbalance.  The lists of a bus never registered are left empty.
 */
static void ddm_final(struct gen_run *r, struct gen_final *f)
{
	struct dgen *g = r->fctx;
	struct gen_rec walk = { 0 };
	int i, j, bound[2] = { 0, 0 };

	if (ddm_bus_is_registered(&g->bus)) {
		ddm_bus_for_each_dev(&g->bus, NULL, &walk, walk_dev_fn);
		f->nlist[0] = walk.nseen;
		memcpy(f->list[0], walk.seen, sizeof(int) * (size_t)walk.nseen);
		walk.nseen = 0;
		ddm_bus_for_each_drv(&g->bus, NULL, &walk, walk_drv_fn);
		f->nlist[1] = walk.nseen;
		memcpy(f->list[1], walk.seen, sizeof(int) * (size_t)walk.nseen);
		f->attr[6] |= 1 << 4;
	}
	for (i = 0; i < 2; i++) {
		struct ddm_driver *d = g->dev[i]->dev.driver;

		f->attr[i] = d ? container_of(d, struct gdrv, drv)->id + 1 : 0;
		if (d)
			bound[container_of(d, struct gdrv, drv)->id]++;
		f->attr[2 + i] = atomic_read(&g->dev[i]->dev.state);
		f->attr[4 + i] = atomic_read(&g->drv[i]->drv.state);
		f->attr[6] |= g->dev[i]->released << i;
	}
	for (j = 0; j < 2; j++)
		f->attr[7] += atomic_read(&g->drv[j]->probes) -
			      atomic_read(&g->drv[j]->removes) != bound[j];
	f->attr[7] += atomic_read(&g->unlocked);
	for (i = 0; i < DW_NR; i++)
		f->warned[i] = gen_misuse_reported(ddm_kinds[i]);
}

static void ddm_teardown(struct gen_run *r)
{
	struct dgen *g = r->fctx;
	int i;

	for (i = 0; i < 2; i++) {
		struct gdev *gd = g->dev[i];
		int state = atomic_read(&gd->dev.state);

		/* The reference a registration or the set-up left: dropped. */
		if (state == DDM_DEV_ADDED)
			ddm_device_unregister(&gd->dev);
		else if ((state == DDM_DEV_DELETED || gd->initialised) &&
			 !gd->released)
			ddm_put_device(&gd->dev);
	}
	for (i = 0; i < 2; i++)
		if (atomic_read(&g->drv[i]->drv.state) == DDM_DRV_REGISTERED)
			ddm_driver_unregister(&g->drv[i]->drv);
	if (ddm_bus_is_registered(&g->bus))
		ddm_bus_unregister(&g->bus);
	for (i = 0; i < 2; i++) {
		kfree(g->drv[i]);
		kfree(g->dev[i]);
	}
	kfree(g);
}

/* --- the sequential model ------------------------------------------------ */

enum { M_UNREG, M_REGISTERING, M_REGISTERED, M_GOING };

struct dmodel {
	int dev_state[2];		/* DDM_DEV_INITIAL, _ADDING, _ATTACHING, _ADDED, _DELETED */
	int drv[2];			/* M_* */
	int bus;			/* M_* */
	bool released[2];		/* its last reference dropped */
	int bound[2];			/* driver id, or -1 */
	struct gen_life dev_life[2], drv_life[2];
	struct gen_life bind_life[2][2];	/* [driver][device]: on its device list */
	int pos;			/* the next place at a list's tail */
	int warned[DW_NR];
	int tb[GEN_MAX_OPS], te[GEN_MAX_OPS];
	int seen[GEN_MAX_OPS];		/* events of each op so far */
	bool listed[2];			/* a driver on the bus list */
	bool failed[GEN_MAX_OPS];	/* a register that lost its claim */
	/* A register under way: each device was bound at some moment since it began. */
	bool was_bound[GEN_MAX_OPS][2];
};

static bool ddm_step(struct dmodel m, const struct gen_run *r,
		     const struct gen_final *f, const int *ev, int nev, int t);

/*
 * Times in the lives, for the walk specification: event t is 2t; a bind
 * or unbind between events t and t + 1 (by an attach or a detach under
 * way) is 2t + 1, after a walk that began at t and before one that ends
 * at t + 1.
 */
#define T_AT(t)		(2 * (t))
#define T_AFTER(t)	(2 * (t) + 1)

/* Ready to probe: announced by its add (H2), not deleted. */
static bool announced(const struct dmodel *m, int d)
{
	return m->dev_state[d] == DDM_DEV_ATTACHING || m->dev_state[d] == DDM_DEV_ADDED;
}

/* Device @d joins driver @j's device list at @time. */
static void mbind(struct dmodel *m, int d, int j, int time)
{
	m->bound[d] = j;
	m->bind_life[j][d] = (struct gen_life){ time, GEN_NEVER, m->pos++ };
}

/* Device @d leaves its driver's device list at @time, if it is on one. */
static void munbind(struct dmodel *m, int d, int time)
{
	if (m->bound[d] >= 0)
		m->bind_life[m->bound[d]][d].deleted = time;
	m->bound[d] = -1;
}

/*
 * After each event: what the registers under way saw bound; then the
 * next event, or first a bind by a register's attach under way (it binds
 * an added, unbound device at any moment between its join and its end),
 * or an unbind by an unregister's detach under way (it unbinds its
 * devices one at a time between leaving the list and its end, in any
 * order here, from the last bound in ddm: an attach may find one device
 * unbound, the other still bound).
 */
static bool ddm_next(struct dmodel *m, const struct gen_run *r,
		     const struct gen_final *f, const int *ev, int nev, int t)
{
	int i, d;

	for (i = 0; i < r->spec.nops; i++)
		if (r->spec.op[i].kind == D_DRV_REG && m->seen[i] == 2)
			for (d = 0; d < 2; d++)
				m->was_bound[i][d] |= m->bound[d] >= 0;
	if (ddm_step(*m, r, f, ev, nev, t + 1))
		return true;
	for (i = 0; i < r->spec.nops; i++) {
		int kind = r->spec.op[i].kind, a = r->spec.op[i].arg;

		if ((kind != D_DRV_REG && kind != D_DRV_UNREG) || m->seen[i] != 2 ||
		    m->failed[i])
			continue;
		for (d = 0; d < 2; d++) {
			struct dmodel b = *m;

			if (kind == D_DRV_REG &&
			    (!announced(m, d) || m->bound[d] >= 0))
				continue;
			/* A detach unbinds its devices one at a time. */
			if (kind == D_DRV_UNREG && m->bound[d] != a)
				continue;
			if (kind == D_DRV_REG)
				mbind(&b, d, a, T_AFTER(t));
			else
				munbind(&b, d, T_AFTER(t));
			if (ddm_next(&b, r, f, ev, nev, t))
				return true;
		}
	}
	return false;
}

static bool ddm_final_ok(const struct dmodel *m, const struct gen_run *r,
			 const struct gen_final *f)
{
	int i, l, n;

	for (i = 0; i < r->spec.nops; i++) {
		int kind = r->spec.op[i].kind;
		const struct gen_life *life;

		/* Only a walk's target indexes the lives (a bus op's is -1). */
		if (!ddm_ops[kind].walk)
			continue;
		life = kind == D_WALK_DEVS ? m->dev_life :
		       kind == D_WALK_DRVS ? m->drv_life :
		       m->bind_life[r->spec.op[i].arg];
		if (r->rec[i].ret || !gen_walk_ok(&r->rec[i], life, 2, T_AT(m->tb[i]),
						  T_AT(m->te[i]), true, -1))
			return false;
	}
	/* The final lists: the live objects in the order they joined. */
	for (l = 0; l < 2; l++) {
		const struct gen_life *life = l ? m->drv_life : m->dev_life;
		int want[2], nwant = 0;

		for (i = 0; i < 2; i++)
			if (life[i].added != GEN_NEVER && life[i].deleted == GEN_NEVER)
				want[nwant++] = i;
		if (nwant == 2 && life[want[0]].pos > life[want[1]].pos) {
			n = want[0];
			want[0] = want[1];
			want[1] = n;
		}
		if (f->nlist[l] != nwant)
			return false;
		for (i = 0; i < nwant; i++)
			if (f->list[l][i] != want[i])
				return false;
	}
	for (i = 0; i < 2; i++) {
		if (f->attr[i] != m->bound[i] + 1 || f->attr[2 + i] != m->dev_state[i] ||
		    f->attr[4 + i] != (m->drv[i] == M_REGISTERED ? DDM_DRV_REGISTERED : 0))
			return false;
		/* Released: exactly the unregistered devices (no one else holds one). */
		if (!!(f->attr[6] & (1 << i)) != m->released[i])
			return false;
	}
	if (!!(f->attr[6] & (1 << 4)) != (m->bus == M_REGISTERED))
		return false;
	if (f->attr[7])
		return false;
	/* Each loser reported once, in its own words; no one else. */
	for (i = 0; i < DW_NR; i++)
		if (m->warned[i] != f->warned[i])
			return false;
	return true;
}

/* A register's end: each added, unbound device bound to @a, or left if it was bound meanwhile. */
static bool ddm_attach_end(struct dmodel *m, const struct gen_run *r,
			   const struct gen_final *f, const int *ev, int nev,
			   int t, int i, int d)
{
	int a = r->spec.op[i].arg;
	struct dmodel b;

	if (d == 2)
		return ddm_next(m, r, f, ev, nev, t);
	if (!announced(m, d) || m->bound[d] >= 0)
		return ddm_attach_end(m, r, f, ev, nev, t, i, d + 1);
	b = *m;
	mbind(&b, d, a, T_AT(t));
	if (ddm_attach_end(&b, r, f, ev, nev, t, i, d + 1))
		return true;
	/* Its walk passed the device while another driver had it. */
	return m->was_bound[i][d] && ddm_attach_end(m, r, f, ev, nev, t, i, d + 1);
}

/* Device @d binds to one of the drivers on the bus list, whichever explains the rest. */
static bool ddm_bind_listed(const struct dmodel *m, const struct gen_run *r,
			    const struct gen_final *f, const int *ev, int nev,
			    int t, int d)
{
	int j;

	for (j = 0; j < 2; j++) {
		struct dmodel b = *m;

		if (!m->listed[j])
			continue;
		mbind(&b, d, j, T_AT(t));
		if (ddm_next(&b, r, f, ev, nev, t))
			return true;
	}
	return false;
}

static bool ddm_step(struct dmodel m, const struct gen_run *r,
		     const struct gen_final *f, const int *ev, int nev, int t)
{
	const struct gen_op *op;
	int i, a, d, j;
	bool begin;

	if (t == nev)
		return ddm_final_ok(&m, r, f);
	i = ev[t];
	op = &r->spec.op[i];
	a = op->arg;
	begin = m.seen[i]++ == 0;
	if (begin)
		m.tb[i] = t;
	else
		m.te[i] = t;

	switch (op->kind) {
	case D_DRV_REG:
		if (m.seen[i] > 1 && m.failed[i])
			return ddm_next(&m, r, f, ev, nev, t);
		if (m.seen[i] == 3) {
			/* Only now can it be unregistered (D11). */
			m.drv[a] = M_REGISTERED;
			return ddm_attach_end(&m, r, f, ev, nev, t, i, 0);
		}
		if (m.seen[i] == 2) {
			/* On the bus list: devices added from now may bind to it. */
			m.listed[a] = true;
			m.drv_life[a] = (struct gen_life){ T_AT(t), GEN_NEVER, m.pos++ };
			for (d = 0; d < 2; d++)
				m.was_bound[i][d] = m.bound[d] >= 0;
			return ddm_next(&m, r, f, ev, nev, t);
		}
		if (m.drv[a] != M_UNREG) {
			m.warned[DW_DRV_TWICE0 + a]++;
			m.failed[i] = true;
			return r->rec[i].ret == -EBUSY && ddm_next(&m, r, f, ev, nev, t);
		}
		/* Claimed (D9): a second register or an unregister now loses. */
		m.drv[a] = M_REGISTERING;
		return r->rec[i].ret == 0 && ddm_next(&m, r, f, ev, nev, t);
	case D_DRV_UNREG:
		if (m.seen[i] > 1 && m.failed[i])
			return ddm_next(&m, r, f, ev, nev, t);
		if (m.seen[i] == 3) {
			/* Its devices unbound (the detach), then it may register again. */
			for (d = 0; d < 2; d++)
				if (m.bound[d] == a)
					munbind(&m, d, T_AT(t));
			m.drv[a] = M_UNREG;
			return ddm_next(&m, r, f, ev, nev, t);
		}
		if (m.seen[i] == 2) {
			/* Off the list (klist_remove()): no new device binds to it. */
			m.listed[a] = false;
			m.drv_life[a].deleted = T_AT(t);
			return ddm_next(&m, r, f, ev, nev, t);
		}
		if (m.drv[a] != M_REGISTERED) {
			/* D9, D11: the loser says why, and touches nothing. */
			m.warned[(m.drv[a] == M_REGISTERING ? DW_DRV_WHILE0 :
				  DW_DRV_NOTREG0) + a]++;
			m.failed[i] = true;
			return ddm_next(&m, r, f, ev, nev, t);
		}
		/* Claimed: still on the list, a second unregister now loses. */
		m.drv[a] = M_GOING;
		return ddm_next(&m, r, f, ev, nev, t);
	case D_DEV_REG:
	case D_DEV_ADD:
		if (m.seen[i] > 1 && m.failed[i])
			return ddm_next(&m, r, f, ev, nev, t);
		if (m.seen[i] == 1) {
			if (m.dev_state[a] != DDM_DEV_INITIAL) {
				m.warned[DW_DEV_TWICE0 + a]++;
				m.failed[i] = true;
				return r->rec[i].ret == -EBUSY &&
				       ddm_next(&m, r, f, ev, nev, t);
			}
			/* Claimed (D9): not yet on the list, not yet to be deleted. */
			m.dev_state[a] = DDM_DEV_ADDING;
			return r->rec[i].ret == 0 && ddm_next(&m, r, f, ev, nev, t);
		}
		if (m.seen[i] == 2) {
			m.dev_life[a] = (struct gen_life){ T_AT(t), GEN_NEVER, m.pos++ };
			return ddm_next(&m, r, f, ev, nev, t);
		}
		if (m.seen[i] == 4) {
			/* Its add returned: only now may it be deleted (D12). */
			m.dev_state[a] = DDM_DEV_ADDED;
			return ddm_next(&m, r, f, ev, nev, t);
		}
		/* Announced (H2), then attached: to a driver on the list, ... */
		m.dev_state[a] = DDM_DEV_ATTACHING;
		if (ddm_bind_listed(&m, r, f, ev, nev, t, a))
			return true;
		/* ... or to none: there is none, or one registering binds it at its end. */
		for (j = 0; j < 2 && m.drv[j] != M_REGISTERING; j++)
			;
		if (j == 2 && (m.listed[0] || m.listed[1]))
			return false;
		m.bound[a] = -1;
		return ddm_next(&m, r, f, ev, nev, t);
	case D_DEV_UNREG:
	case D_DEV_DEL:
		if (m.seen[i] > 1) {
			/* Off the bus list, then unbound (its driver's list). */
			if (!m.failed[i] && m.seen[i] == 2)
				m.dev_life[a].deleted = T_AT(t);
			if (!m.failed[i] && m.seen[i] == 3)
				munbind(&m, a, T_AT(t));
			return ddm_next(&m, r, f, ev, nev, t);
		}
		if (m.dev_state[a] != DDM_DEV_ADDED) {
			/* D9, D12: the loser says why, and touches nothing. */
			m.warned[(m.dev_state[a] == DDM_DEV_ADDING ||
				  m.dev_state[a] == DDM_DEV_ATTACHING ? DW_DEV_WHILE0 :
				  DW_DEV_NOTREG0) + a]++;
			m.failed[i] = true;
			return ddm_next(&m, r, f, ev, nev, t);
		}
		/* An unregister drops the last reference; a delete leaves it. */
		m.dev_state[a] = DDM_DEV_DELETED;
		m.released[a] = op->kind == D_DEV_UNREG;
		return ddm_next(&m, r, f, ev, nev, t);
	case D_RELEASE:
		munbind(&m, a, T_AT(t));
		return ddm_next(&m, r, f, ev, nev, t);
	case D_ATTACH:
		/* Not announced yet, or not registered (never, or no more). */
		if (m.dev_state[a] == DDM_DEV_ADDING)
			return r->rec[i].ret == -EPROBE_DEFER && ddm_next(&m, r, f, ev, nev, t);
		if (!announced(&m, a))
			return r->rec[i].ret == -ENODEV && ddm_next(&m, r, f, ev, nev, t);
		/* Bound already: stays, 1.  Else to a driver on the list, 1, ... */
		if (m.bound[a] >= 0)
			return r->rec[i].ret == 1 && ddm_next(&m, r, f, ev, nev, t);
		if (r->rec[i].ret == 1)
			return ddm_bind_listed(&m, r, f, ev, nev, t, a);
		/* ... or 0: none on the list. */
		return r->rec[i].ret == 0 && !m.listed[0] && !m.listed[1] &&
		       ddm_next(&m, r, f, ev, nev, t);
	case D_BIND:
		/* Under the device lock: bound already, 1, or now to r0, 0. */
		if (m.bound[a] >= 0)
			return r->rec[i].ret == 1 && ddm_next(&m, r, f, ev, nev, t);
		mbind(&m, a, 0, T_AT(t));
		return r->rec[i].ret == 0 && ddm_next(&m, r, f, ev, nev, t);
	case D_BUS_REG:
		if (m.seen[i] == 2) {
			if (!m.failed[i])
				m.bus = M_REGISTERED;
			return ddm_next(&m, r, f, ev, nev, t);
		}
		if (m.bus != M_UNREG) {
			m.warned[DW_BUS_TWICE]++;
			m.failed[i] = true;
			return r->rec[i].ret == -EBUSY && ddm_next(&m, r, f, ev, nev, t);
		}
		m.bus = M_REGISTERING;
		return r->rec[i].ret == 0 && ddm_next(&m, r, f, ev, nev, t);
	case D_BUS_UNREG:
		if (m.seen[i] == 2) {
			/* A bus with something on it: reported, registered again. */
			if (!m.failed[i] && (ddm_init[r->spec.state].devs ||
					     ddm_init[r->spec.state].drvs)) {
				m.warned[DW_BUS_BUSY]++;
				m.bus = M_REGISTERED;
			} else if (!m.failed[i]) {
				m.bus = M_UNREG;
			}
			return ddm_next(&m, r, f, ev, nev, t);
		}
		/* D13: claimed from "registered" only; the loser is reported. */
		if (m.bus != M_REGISTERED) {
			m.warned[m.bus == M_REGISTERING ? DW_BUS_WHILE : DW_BUS_NOTREG]++;
			m.failed[i] = true;
			return ddm_next(&m, r, f, ev, nev, t);
		}
		m.bus = M_GOING;
		return ddm_next(&m, r, f, ev, nev, t);
	}
	/* The walks: their begin and end are all the model needs. */
	return ddm_next(&m, r, f, ev, nev, t);
}

static bool ddm_explain(const struct gen_run *r, const struct gen_final *f,
			const int *ev, int nev)
{
	struct dmodel m = { .pos = 0 };
	unsigned int devs = ddm_init[r->spec.state].devs;
	unsigned int drvs = ddm_init[r->spec.state].drvs;
	int i;

	for (i = 0; i < 2; i++) {
		m.bound[i] = -1;
		m.dev_life[i] = m.drv_life[i] = m.bind_life[0][i] = m.bind_life[1][i] =
			(struct gen_life){ GEN_NEVER, GEN_NEVER, GEN_NEVER };
	}
	/* The set-up, as the model sees it: drivers, then devices bind to the first. */
	for (i = 0; i < 2; i++)
		if (drvs & (1u << i)) {
			m.drv[i] = M_REGISTERED;
			m.listed[i] = true;
			m.drv_life[i] = (struct gen_life){ -1, GEN_NEVER, m.pos++ };
		}
	for (i = 0; i < 2; i++)
		if (devs & (1u << i)) {
			m.dev_state[i] = DDM_DEV_ADDED;
			m.dev_life[i] = (struct gen_life){ -1, GEN_NEVER, m.pos++ };
			if (drvs)
				mbind(&m, i, drvs & 1 ? 0 : 1, -1);
		}
	m.bus = r->spec.state == S_NOBUS ? M_UNREG : M_REGISTERED;
	for (i = 0; i < GEN_MAX_OPS; i++)
		m.tb[i] = m.te[i] = -1;
	return ddm_step(m, r, f, ev, nev, 0);
}

const struct gen_family gen_ddm_family = {
	.name = "ddm",
	.ops = ddm_ops,
	.nops = D_NR,
	.states = ddm_states,
	.nstates = S_NR,
	.kinds = ddm_kinds,
	.nkinds = DW_NR,
	.targets = ddm_targets,
	.allowed = ddm_allowed,
	.misuse = ddm_misuse,
	.setup = ddm_setup,
	.run = ddm_run,
	.final = ddm_final,
	.teardown = ddm_teardown,
	.explain = ddm_explain,
};
