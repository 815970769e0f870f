// SPDX-License-Identifier: GPL-2.0
/*
 * The hotplug family of generated scenarios: class devices created,
 * destroyed and looked up by number, and uevent listeners that subscribe
 * and unsubscribe, on the real lib/ddm/class.c and lib/ddm/uevent.c, and
 * their sequential model.
 *
 * Objects: one class ("g-cls", made by the set-up) and its devices c0
 * and c1 (numbers 1 and 2, "g-c0"), each there or not by the initial
 * state.  A listener is the operation's own: it subscribes, unsubscribes,
 * then takes what was queued for it; it names each event by what
 * happened and to which device (add c0 = 0, add c1 = 1, remove c0 = 2,
 * remove c1 = 3).
 *
 * The model (hotplug_explain()), reviewed against lib/ddm/class.c,
 * lib/ddm/uevent.c and docs/hotplug-class.md:
 *  - create: one event under the class mutex: with no device of that
 *    number, adds it and emits its "add", 0; else -EEXIST, nothing
 *    emitted (H1: the event comes once the device can be found).
 *  - destroy: one event under the class mutex: unlinks the device and
 *    emits its "remove", 0; with none, -ENOENT.
 *  - find: one event under the class mutex: 1 if the device is there.
 *  - listen: two events, its subscribe and its unsubscribe (both under
 *    the uevent mutex, which every emission holds): it gets exactly the
 *    events emitted between the two, in the order they were emitted,
 *    none twice, none from before or after.
 * The final state is which devices a find sees.
 *
 * Nothing here is a misuse: a second create of a number and a destroy of
 * a number with no device are documented errors, not reported.  Not
 * modelled: class devices of a registered device (the `device` link),
 * the class's own destroy while its devices change, a listener that
 * sleeps in ddm_listener_next().
 */
#include <linux/ddm_class.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/slab.h>

#include "gen.h"

enum { H_CREATE, H_DESTROY, H_FIND, H_LISTEN, H_NR };

static const struct gen_opdef hotplug_ops[H_NR] = {
	[H_CREATE]	= { "create", GEN_ARG_CDEV },
	[H_DESTROY]	= { "destroy", GEN_ARG_CDEV },
	[H_FIND]	= { "find", GEN_ARG_CDEV },
	/* Subscribes; unsubscribes; then takes its queue. */
	[H_LISTEN]	= { "listen", GEN_ARG_NONE, false, 2 },
};

/* The class devices there at the start: a bit each. */
enum { S_NONE, S_C0, S_C0C1, S_NR };
static const char *const hotplug_states[S_NR] = {
	[S_NONE] = "none", [S_C0] = "c0", [S_C0C1] = "c0c1",
};
static const unsigned int hotplug_init[S_NR] = {
	[S_NONE] = 0, [S_C0] = 1, [S_C0C1] = 3,
};

/* An event as a listener names it; anything else it gets is EV_OTHER. */
#define EV_ID(remove, c)	((remove) * 2 + (c))
#define EV_OTHER		7

struct hgen {
	struct ddm_class *cls;
};

static int hotplug_targets(int state, enum gen_arg arg)
{
	return 2;
}

/* Where c0 and c1 start alike, one of a mirrored pair. */
static bool hotplug_allowed(const struct gen_spec *s)
{
	unsigned int init = hotplug_init[s->state];

	return !gen_mirrored(s, GEN_ARG_CDEV, !!(init & 1) == !!(init & 2));
}

static bool hotplug_misuse(const struct gen_spec *s)
{
	return false;
}

static void *hotplug_setup(const struct gen_spec *s)
{
	struct hgen *g = kzalloc(sizeof(*g), GFP_KERNEL);
	int c;

	g->cls = ddm_class_create(NULL, "g-cls");
	for (c = 0; c < 2; c++)
		if (hotplug_init[s->state] & (1u << c))
			ddm_class_device_create(g->cls, c + 1, NULL, "g-c%d", c);
	return g;
}

/* Subscribe, unsubscribe, then take what was queued between the two. */
static void hotplug_listen(struct gen_rec *rec)
{
	struct ddm_listener l;
	struct ddm_uevent *ev;

	ddm_listener_init(&l, "g-listener");
	rec->ret = ddm_listener_subscribe(&l);
	if (!rec->ret)
		rec->ret = ddm_listener_unsubscribe(&l);
	while (!IS_ERR(ev = ddm_listener_poll(&l))) {
		int id = EV_OTHER;

		if ((ev->action == DDM_UEVENT_ADD || ev->action == DDM_UEVENT_REMOVE) &&
		    (ev->devt == 1 || ev->devt == 2))
			id = EV_ID(ev->action == DDM_UEVENT_REMOVE, (int)ev->devt - 1);
		if (rec->nseen < GEN_MAX_SEEN)
			rec->seen[rec->nseen++] = id;
		ddm_uevent_free(ev);
	}
	ddm_listener_flush(&l);
}

static void hotplug_run(struct gen_run *r, int i)
{
	struct hgen *g = r->fctx;
	const struct gen_op *op = &r->spec.op[i];
	struct gen_rec *rec = &r->rec[i];
	struct ddm_class_device *cd;

	switch (op->kind) {
	case H_CREATE:
		cd = ddm_class_device_create(g->cls, op->arg + 1, NULL, "g-c%d", op->arg);
		rec->ret = PTR_ERR_OR_ZERO(cd);
		break;
	case H_DESTROY:
		rec->ret = ddm_class_device_destroy(g->cls, op->arg + 1);
		break;
	case H_FIND:
		cd = ddm_class_find_device(g->cls, op->arg + 1);
		rec->ret = !!cd;
		ddm_class_device_put(cd);
		break;
	case H_LISTEN:
		hotplug_listen(rec);
		break;
	}
}

/* attr: 0-1 the device there (a find sees it). */
static void hotplug_final(struct gen_run *r, struct gen_final *f)
{
	struct hgen *g = r->fctx;
	int c;

	for (c = 0; c < 2; c++) {
		struct ddm_class_device *cd = ddm_class_find_device(g->cls, c + 1);

		f->attr[c] = !!cd;
		ddm_class_device_put(cd);
	}
}

static void hotplug_teardown(struct gen_run *r)
{
	struct hgen *g = r->fctx;
	int c;

	for (c = 0; c < 2; c++)
		ddm_class_device_destroy(g->cls, c + 1);
	ddm_class_destroy(g->cls);
	kfree(g);
}

/* --- the sequential model ------------------------------------------------ */

struct hmodel {
	bool there[2];
	int nemitted;
	int emitted[GEN_MAX_OPS];	/* event ids, in emission order ... */
	int emitted_at[GEN_MAX_OPS];	/* ... and the event index of each */
	int subscribed_at[GEN_MAX_OPS];	/* a listener's subscribe, -1 before */
};

static void hemit(struct hmodel *m, int id, int t)
{
	m->emitted[m->nemitted] = id;
	m->emitted_at[m->nemitted++] = t;
}

/* A listener subscribed at @tb, unsubscribed at @te: exactly the events between. */
static bool hotplug_listened(const struct hmodel *m, const struct gen_rec *rec,
			     int tb, int te)
{
	int k, n = 0;

	if (rec->ret)
		return false;
	for (k = 0; k < m->nemitted; k++) {
		/* The planted mistake: events from before the subscribe too. */
		if ((m->emitted_at[k] < tb && !gen_mutant("listen_from_start")) ||
		    m->emitted_at[k] > te)
			continue;
		if (n >= rec->nseen || rec->seen[n] != m->emitted[k])
			return false;
		n++;
	}
	return n == rec->nseen;
}

static bool hotplug_explain(const struct gen_run *r, const struct gen_final *f,
			    const int *ev, int nev)
{
	struct hmodel m = { .nemitted = 0 };
	int t, c;

	for (c = 0; c < 2; c++)
		m.there[c] = hotplug_init[r->spec.state] & (1u << c);
	for (t = 0; t < GEN_MAX_OPS; t++)
		m.subscribed_at[t] = -1;
	for (t = 0; t < nev; t++) {
		int i = ev[t];
		const struct gen_op *op = &r->spec.op[i];
		const struct gen_rec *rec = &r->rec[i];

		switch (op->kind) {
		case H_CREATE:
		case H_DESTROY: {
			bool create = op->kind == H_CREATE;

			/* A create of a number there, a destroy of one not: an error, no event. */
			if (m.there[op->arg] == create) {
				if (rec->ret != (create ? -EEXIST : -ENOENT))
					return false;
				break;
			}
			if (rec->ret)
				return false;
			m.there[op->arg] = create;
			hemit(&m, EV_ID(!create, op->arg), t);
			break;
		}
		case H_FIND:
			if (rec->ret != m.there[op->arg])
				return false;
			break;
		case H_LISTEN:
			if (m.subscribed_at[i] < 0)
				m.subscribed_at[i] = t;
			else if (!hotplug_listened(&m, rec, m.subscribed_at[i], t))
				return false;
			break;
		}
	}
	for (c = 0; c < 2; c++)
		if (f->attr[c] != m.there[c])
			return false;
	return true;
}

const struct gen_family gen_hotplug_family = {
	.name = "hotplug",
	.ops = hotplug_ops,
	.nops = H_NR,
	.states = hotplug_states,
	.nstates = S_NR,
	.kinds = NULL,
	.nkinds = 0,
	.targets = hotplug_targets,
	.allowed = hotplug_allowed,
	.misuse = hotplug_misuse,
	.setup = hotplug_setup,
	.run = hotplug_run,
	.final = hotplug_final,
	.teardown = hotplug_teardown,
	.explain = hotplug_explain,
};
