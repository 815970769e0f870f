// SPDX-License-Identifier: GPL-2.0
/*
 * The generator: every multiset of operations of a family on each of its
 * initial states, in a fixed order, and each one's name.  Kernel C: the
 * KUnit runner uses it in both worlds.
 */
#include <linux/kernel.h>

#include "gen.h"

const char gen_arg_prefix[] = {
	[GEN_ARG_NONE] = '?', [GEN_ARG_NODE] = 'n',
	[GEN_ARG_DEV] = 'd', [GEN_ARG_DRV] = 'r', [GEN_ARG_CDEV] = 'c',
};

const struct gen_family *const gen_families[] = {
	&gen_klist_family, &gen_ddm_family, &gen_hotplug_family, NULL,
};

/* The operations one may apply in @state, each with its target. */
static int instances(const struct gen_family *fam, int state,
		     struct gen_op *out, int max)
{
	int kind, t, n = 0;

	for (kind = 0; kind < fam->nops; kind++) {
		enum gen_arg arg = fam->ops[kind].arg;
		int nt = arg == GEN_ARG_NONE ? 1 : fam->targets(state, arg);

		for (t = 0; t < nt && n < max; t++)
			out[n++] = (struct gen_op){ kind, arg == GEN_ARG_NONE ? -1 : t };
	}
	return n;
}

unsigned long gen_enumerate(const struct gen_family *fam, int nops,
			    void (*fn)(const struct gen_spec *s, void *arg),
			    void *arg)
{
	struct gen_op inst[64];
	unsigned long made = 0;
	int state, n, idx[GEN_MAX_OPS], i;

	for (state = 0; state < fam->nstates; state++) {
		n = instances(fam, state, inst, 64);
		/* Multisets: idx[0] <= idx[1] <= ... */
		for (i = 0; i < nops; i++)
			idx[i] = 0;
		while (n) {
			struct gen_spec s = { .fam = fam, .state = state, .nops = nops };

			for (i = 0; i < nops; i++)
				s.op[i] = inst[idx[i]];
			if (fam->allowed(&s)) {
				made++;
				if (fn)
					fn(&s, arg);
			}
			for (i = nops - 1; i >= 0 && idx[i] == n - 1; i--)
				;
			if (i < 0)
				break;
			idx[i]++;
			while (++i < nops)
				idx[i] = idx[i - 1];
		}
	}
	return made;
}

void gen_name(const struct gen_spec *s, char *buf, size_t len)
{
	/*
	 * ':' where the issue wrote '/': a schedule string is NAME/CHOICES
	 * and the explorer splits it at the first '/'.  gen_parse() takes
	 * both spellings.
	 */
	size_t n = (size_t)snprintf(buf, len, "gen:%s:", s->fam->name);
	int i;

	for (i = 0; i < s->nops && n < len; i++) {
		const struct gen_opdef *d = &s->fam->ops[s->op[i].kind];

		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "+" : "", d->name);
		if (d->arg != GEN_ARG_NONE && n < len)
			n += (size_t)snprintf(buf + n, len - n, "-%c%d",
					      gen_arg_prefix[d->arg], s->op[i].arg);
	}
	if (n < len)
		snprintf(buf + n, len - n, "@%s", s->fam->states[s->state]);
}

static bool gen_names(const struct gen_spec *s, enum gen_arg type, int arg)
{
	int i;

	for (i = 0; i < s->nops; i++)
		if (s->fam->ops[s->op[i].kind].arg == type && s->op[i].arg == arg)
			return true;
	return false;
}

bool gen_mirrored(const struct gen_spec *s, enum gen_arg type, bool alike)
{
	return alike && gen_names(s, type, 1) && !gen_names(s, type, 0);
}
