// SPDX-License-Identifier: GPL-2.0
/*
 * The check of a generated scenario's outcome: is there an order of its
 * operations, consistent with real time, that the family's sequential
 * model says explains what every operation returned and saw, the misuse
 * reports and the final state?  An operation is one event; a walk is two
 * (its begin and its end), since a walk is not atomic: what it must
 * return is decided by what happened between the two (gen_walk_ok()).
 *
 * Real time: an operation that ended before another began comes first,
 * with all its events.  At most three operations, six events: every
 * order is tried.
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include "gen.h"

struct search {
	const struct gen_run *r;
	const struct gen_final *f;
	int nev;		/* events in all */
	int ev[GEN_MAX_EVENTS * GEN_MAX_OPS];
	int placed[GEN_MAX_OPS];	/* events of each op placed so far */
	int need[GEN_MAX_OPS];		/* its events: 1, 2 for a walk, or more */
};

/* May op @i have its next event now?  Every op that ended before it began must be done. */
static bool may_place(const struct search *s, int i)
{
	int j;

	if (s->placed[i] == s->need[i])
		return false;
	for (j = 0; j < s->r->spec.nops; j++)
		if (j != i && s->r->rec[j].end < s->r->rec[i].start &&
		    s->placed[j] < s->need[j])
			return false;
	return true;
}

static bool search(struct search *s, int depth)
{
	int i;

	if (depth == s->nev)
		return s->r->spec.fam->explain(s->r, s->f, s->ev, s->nev);
	for (i = 0; i < s->r->spec.nops; i++) {
		if (!may_place(s, i))
			continue;
		s->ev[depth] = i;
		s->placed[i]++;
		if (search(s, depth + 1))
			return true;
		s->placed[i]--;
	}
	return false;
}

bool gen_linearizable(const struct gen_run *r, const struct gen_final *f)
{
	struct search s = { .r = r, .f = f };
	int i;

	for (i = 0; i < r->spec.nops; i++) {
		const struct gen_opdef *d = &r->spec.fam->ops[r->spec.op[i].kind];

		s.need[i] = d->events ? d->events : d->walk ? 2 : 1;
		if (WARN_ON(s.need[i] > GEN_MAX_EVENTS))
			return false;
		s.nev += s.need[i];
	}
	return search(&s, 0);
}

bool gen_walk_ok(const struct gen_rec *rec, const struct gen_life *life,
		 int nids, int tb, int te, bool forward, int from)
{
	bool returned[GEN_MAX_IDS] = { false };
	bool head_ok = from >= 0 && life[from].deleted < te;
	int mode, i, last = -1;

	/* Every node returned: live at some moment of the walk, once, in order. */
	for (i = 0; i < rec->nseen; i++) {
		int id = rec->seen[i];

		if (id < 0 || id >= nids || returned[id])
			return false;
		if (!(life[id].added < te && life[id].deleted > tb))
			return false;
		if (last >= 0 && (forward ? life[id].pos <= life[last].pos :
					    life[id].pos >= life[last].pos))
			return false;
		returned[id] = true;
		last = id;
	}
	/* The window: after @from, or from the head (only if @from went). */
	for (mode = 0; mode < 2; mode++) {
		bool ok = true;

		if (mode == 1 && (from < 0 || !head_ok))
			break;
		for (i = 0; i < nids && ok; i++) {
			bool in = true;

			if (from >= 0 && mode == 0)
				in = life[i].pos > life[from].pos;
			if (in && rec->stopped && last >= 0)
				in = forward ? life[i].pos <= life[last].pos :
					       life[i].pos >= life[last].pos;
			/* Live throughout: linked before it began, deleted after it ended. */
			if (in && life[i].added < tb && life[i].deleted > te &&
			    !returned[i])
				ok = false;
			if (returned[i] && from >= 0 && mode == 0 &&
			    life[i].pos <= life[from].pos)
				ok = false;
		}
		if (ok)
			return true;
	}
	return false;
}

static unsigned long mix(unsigned long h, long v)
{
	return (h ^ (unsigned long)v) * 1099511628211UL;
}

unsigned long gen_outcome(const struct gen_run *r, const struct gen_final *f)
{
	unsigned long h = 1469598103934665603UL;
	int i, j;

	for (i = 0; i < r->spec.nops; i++) {
		h = mix(h, r->rec[i].ret);
		for (j = 0; j < r->rec[i].nseen; j++)
			h = mix(h, r->rec[i].seen[j] + 100);
		h = mix(h, -1);
	}
	for (i = 0; i < 2; i++)
		for (j = 0; j < f->nlist[i]; j++)
			h = mix(h, f->list[i][j] + 1000 * (i + 1));
	for (i = 0; i < GEN_MAX_IDS; i++)
		h = mix(h, f->attr[i]);
	for (i = 0; i < GEN_MAX_KINDS; i++)
		h = mix(h, f->warned[i]);
	return h;
}

void gen_describe(const struct gen_run *r, const struct gen_final *f,
		  char *buf, size_t len)
{
	const struct gen_family *fam = r->spec.fam;
	size_t n = 0;
	int i, j, l;

#define PUT(...) do {							\
	if (n < len)							\
		n += (size_t)snprintf(buf + n, len - n, __VA_ARGS__);	\
} while (0)
	for (i = 0; i < r->spec.nops; i++) {
		const struct gen_rec *rec = &r->rec[i];

		PUT("%s[%d..%d]=%ld", fam->ops[r->spec.op[i].kind].name,
		    rec->start, rec->end, rec->ret);
		if (fam->ops[r->spec.op[i].kind].walk || rec->nseen) {
			PUT(" saw");
			for (j = 0; j < rec->nseen; j++)
				PUT(" %d", rec->seen[j]);
			if (rec->stopped)
				PUT(" (stopped)");
		}
		PUT("; ");
	}
	for (l = 0; l < 2; l++) {
		PUT("list%d:", l);
		for (j = 0; j < f->nlist[l]; j++)
			PUT(" %d", f->list[l][j]);
		PUT("; ");
	}
	PUT("attr:");
	for (j = 0; j < GEN_MAX_IDS; j++)
		PUT(" %d", f->attr[j]);
	for (j = 0; j < fam->nkinds; j++)
		if (f->warned[j])
			PUT("; %dx \"%s\"", f->warned[j], fam->kinds[j]);
#undef PUT
}
