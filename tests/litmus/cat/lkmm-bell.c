// SPDX-License-Identifier: GPL-2.0
/*
 * herd7's built-in sets and relations, linux-kernel.bell and lock.cat:
 * everything linux-kernel.cat takes as given.  Each block quotes the
 * lines it implements.
 */
#include "lkmm-internal.h"

const char *const lkmm_axiom_name[LKMM_NAXIOMS] = {
	[LKMM_OK] = "ok",
	[LKMM_CO0] = "co0",
	[LKMM_LOCK_NEST] = "lock-nest",
	[LKMM_UNMATCHED_LOCKS] = "unmatched-locks",
	[LKMM_COHERENCE] = "coherence",
	[LKMM_ATOMIC] = "atomic",
	[LKMM_HAPPENS_BEFORE] = "happens-before",
	[LKMM_PROPAGATION] = "propagation",
	[LKMM_RCU] = "rcu",
	[LKMM_PLAIN_COHERENCE] = "plain-coherence",
};

const char *const lkmm_flag_name[LKMM_NFLAGS] = {
	"data-race", "mixed-accesses", "unbalanced-rcu-locking",
	"mixed-lock-accesses", "unpaired-LKW-LKR", "lock-final",
	"unmatched-unlock", "unbalanced-srcu-locking", "invalid-sleep",
	"srcu-bad-nesting",
};

static lkmm_set tagged(const struct lkmm_exec *x, unsigned int tags)
{
	lkmm_set s = 0;

	for (int i = 0; i < x->n; i++)
		if (x->ev[i].tags & tags)
			s |= set_bit(i);
	return s;
}

struct rel lkmm_fencerel(const struct lkmm_ctx *c, lkmm_set s)
{
	struct rel a = rel_restrict(&c->po, c->all, s);

	return rel_seq(&a, &c->po);
}

/* herd7's po, loc, int, ext, id over the events of @x. */
static void builtins(const struct lkmm_exec *x, struct lkmm_ctx *c)
{
	rel_zero(&c->po);
	rel_zero(&c->loc);
	rel_zero(&c->intr);
	rel_zero(&c->ext);
	for (int i = 0; i < x->n; i++) {
		const struct lkmm_event *a = &x->ev[i];

		for (int j = 0; j < x->n; j++) {
			const struct lkmm_event *b = &x->ev[j];
			bool same = a->thread >= 0 && a->thread == b->thread;

			if (same && i < j)
				rel_add(&c->po, i, j);
			if (a->loc >= 0 && a->loc == b->loc)
				rel_add(&c->loc, i, j);
			if (same || i == j)
				rel_add(&c->intr, i, j);
			else
				rel_add(&c->ext, i, j);
		}
	}
	c->id = rel_id(c->all);
	c->po_loc = rel_and(&c->po, &c->loc);
}

/*
 * let srcu-rscs = let rec
 *	    unmatched-locks = Srcu-lock \ domain(matched)
 *	and unmatched-unlocks = Srcu-unlock \ range(matched)
 *	and unmatched = unmatched-locks | unmatched-unlocks
 *	and unmatched-po = ([unmatched] ; po ; [unmatched]) & loc
 *	and unmatched-locks-to-unlocks =
 *		([unmatched-locks] ; po ; [unmatched-unlocks]) & loc
 *	and matched = matched | (unmatched-locks-to-unlocks \
 *		(unmatched-po ; unmatched-po))
 *	in matched
 * is rcu-rscs (below) with "& loc" on the two po terms: @by_loc.
 *
 * let rcu-rscs = let rec
 *	    unmatched-locks = Rcu-lock \ domain(matched)
 *	and unmatched-unlocks = Rcu-unlock \ range(matched)
 *	and unmatched = unmatched-locks | unmatched-unlocks
 *	and unmatched-po = [unmatched] ; po ; [unmatched]
 *	and unmatched-locks-to-unlocks =
 *		[unmatched-locks] ; po ; [unmatched-unlocks]
 *	and matched = matched | (unmatched-locks-to-unlocks \
 *		(unmatched-po ; unmatched-po))
 *	in matched
 * (the least fixed point, from the empty relation)
 */
static struct rel rscs(const struct lkmm_ctx *c, lkmm_set locks,
		       lkmm_set unlocks, bool by_loc)
{
	struct rel matched, next;

	rel_zero(&matched);
	for (;;) {
		lkmm_set ul = locks & ~rel_domain(&matched);
		lkmm_set uu = unlocks & ~rel_range(&matched);
		lkmm_set un = ul | uu;
		struct rel upo = rel_restrict(&c->po, un, un);
		struct rel ultu = rel_restrict(&c->po, ul, uu);

		if (by_loc) {
			upo = rel_and(&upo, &c->loc);
			ultu = rel_and(&ultu, &c->loc);
		}
		struct rel upo2 = rel_seq(&upo, &upo);
		struct rel add = rel_minus(&ultu, &upo2);

		next = rel_or(&matched, &add);
		if (rel_eq(&next, &matched))
			return matched;
		matched = next;
	}
}

enum lkmm_axiom lkmm_bell(const struct lkmm_exec *x, struct lkmm_ctx *c)
{
	lkmm_set M0, all_locks, critical_dom, unmatched_lkw;
	struct rel lk_rmw, t, u, critical, co0, co1;

	rel_n = x->n;
	c->x = x;
	c->flags = 0;
	c->all = x->n == 64 ? ~(lkmm_set)0 : set_bit(x->n) - 1;
	builtins(x, c);

	/* instructions R[...], W[...], F[...]: herd7's classes. */
	c->R = tagged(x, LKMM_R);
	c->W = tagged(x, LKMM_W) | tagged(x, LKMM_IW);
	c->F = tagged(x, LKMM_F);
	c->IW = tagged(x, LKMM_IW);
	c->Once = tagged(x, LKMM_ONCE);
	c->Acquire = tagged(x, LKMM_ACQUIRE);
	c->Release = tagged(x, LKMM_RELEASE);
	c->Noreturn = tagged(x, LKMM_NORETURN);
	c->RMW = tagged(x, LKMM_RMW);
	c->Mb = tagged(x, LKMM_MB);
	c->Rmb = tagged(x, LKMM_RMB);
	c->Wmb = tagged(x, LKMM_WMB);
	c->Barrier = tagged(x, LKMM_BARRIER);
	c->Rcu_lock = tagged(x, LKMM_RCU_LOCK);
	c->Rcu_unlock = tagged(x, LKMM_RCU_UNLOCK);
	c->Sync_rcu = tagged(x, LKMM_SYNC_RCU);
	c->Before_atomic = tagged(x, LKMM_BEFORE_ATOMIC);
	c->After_atomic = tagged(x, LKMM_AFTER_ATOMIC);
	c->After_spinlock = tagged(x, LKMM_AFTER_SPINLOCK);
	c->After_unlock_lock = tagged(x, LKMM_AFTER_UNLOCK_LOCK);
	c->LKR = tagged(x, LKMM_LKR);
	c->LKW = tagged(x, LKMM_LKW);
	c->UL = tagged(x, LKMM_UL);
	c->LF = tagged(x, LKMM_LF);
	c->RL = tagged(x, LKMM_RL);
	c->RU = tagged(x, LKMM_RU);
	c->Srcu_lock = tagged(x, LKMM_SRCU_LOCK);
	c->Srcu_unlock = tagged(x, LKMM_SRCU_UNLOCK);
	c->Sync_srcu = tagged(x, LKMM_SYNC_SRCU);
	c->rmw = x->rmw;
	c->addr = x->addr;
	c->data = x->data;
	c->ctrl = x->ctrl;
	M0 = c->R | c->W;

	/* bell: rcu-rscs and
	 * flag ~empty Rcu-lock \ domain(rcu-rscs) as unbalanced-rcu-locking
	 * flag ~empty Rcu-unlock \ range(rcu-rscs) as unbalanced-rcu-locking */
	c->rcu_rscs = rscs(c, c->Rcu_lock, c->Rcu_unlock, false);
	if ((c->Rcu_lock & ~rel_domain(&c->rcu_rscs)) ||
	    (c->Rcu_unlock & ~rel_range(&c->rcu_rscs)))
		c->flags |= LKMM_FLAG_UNBALANCED_RCU;
	/* srcu-rscs and
	 * flag ~empty Srcu-lock \ domain(srcu-rscs) as unbalanced-srcu-locking
	 * flag ~empty Srcu-unlock \ range(srcu-rscs) as unbalanced-srcu-locking
	 * flag ~empty rcu-rscs & (po ; [Sync-srcu] ; po) as invalid-sleep
	 * flag ~empty different-values(srcu-rscs) as srcu-bad-nesting */
	c->srcu_rscs = rscs(c, c->Srcu_lock, c->Srcu_unlock, true);
	if ((c->Srcu_lock & ~rel_domain(&c->srcu_rscs)) ||
	    (c->Srcu_unlock & ~rel_range(&c->srcu_rscs)))
		c->flags |= LKMM_FLAG_UNBALANCED_SRCU;
	t = rel_restrict(&c->po, c->all, c->Sync_srcu);
	t = rel_seq(&t, &c->po);
	t = rel_and(&c->rcu_rscs, &t);
	if (!rel_is_empty(&t))
		c->flags |= LKMM_FLAG_INVALID_SLEEP;
	for (int i = 0; i < x->n; i++)
		for (int j = 0; j < x->n; j++)
			if (rel_has(&c->srcu_rscs, i, j) && x->ev[i].val != x->ev[j].val)
				c->flags |= LKMM_FLAG_SRCU_BAD_NESTING;

	/* let Marked = (~M) | IW | Once | Release | Acquire | domain(rmw) |
	 *	range(rmw) | LKR | LKW | UL | LF | RL | RU
	 * let Plain = M \ Marked
	 * (M, rmw, Release, Acquire as the bell sees them: before lock.cat) */
	c->Marked = (c->all & ~M0) | c->IW | c->Once | c->Release | c->Acquire |
		    rel_domain(&c->rmw) | rel_range(&c->rmw) | c->LKR | c->LKW |
		    c->UL | c->LF | c->RL | c->RU;
	c->Plain = M0 & ~c->Marked;

	/* lock.cat: let LF = LF | RL */
	c->LF |= c->RL;
	/* let ALL-LOCKS = LKR | LKW | UL | LF | RU
	 * flag ~empty [M \ IW] ; loc ; [ALL-LOCKS] as mixed-lock-accesses */
	all_locks = c->LKR | c->LKW | c->UL | c->LF | c->RU;
	t = rel_restrict(&c->loc, M0 & ~c->IW, all_locks);
	if (!rel_is_empty(&t))
		c->flags |= LKMM_FLAG_MIXED_LOCK_ACCESSES;
	/* let lk-rmw = ([LKR] ; po-loc ; [LKW]) \ (po ; po)
	 * let rmw = rmw | lk-rmw */
	t = rel_restrict(&c->po_loc, c->LKR, c->LKW);
	u = rel_seq(&c->po, &c->po);
	lk_rmw = rel_minus(&t, &u);
	c->rmw = rel_or(&c->rmw, &lk_rmw);
	/* flag ~empty LKW \ range(lk-rmw) as unpaired-LKW
	 * flag ~empty LKR \ domain(lk-rmw) as unpaired-LKR */
	if ((c->LKW & ~rel_range(&lk_rmw)) || (c->LKR & ~rel_domain(&lk_rmw)))
		c->flags |= LKMM_FLAG_UNPAIRED_LOCK;
	/* empty ([LKW] ; po-loc ; [LKR]) \ (po-loc ; [UL] ; po-loc)
	 *	as lock-nest */
	t = rel_restrict(&c->po_loc, c->LKW, c->LKR);
	u = rel_restrict(&c->po_loc, c->all, c->UL);
	u = rel_seq(&u, &c->po_loc);
	t = rel_minus(&t, &u);
	if (!rel_is_empty(&t))
		return LKMM_LOCK_NEST;
	/* (flag lock-final: a final condition on a lock; the reader refuses
	 * such a condition, litmus-parse.c) */
	/* let R = R | LKR | LF | RU
	 * let W = W | LKW
	 * let Release = Release | UL
	 * let Acquire = Acquire | LKR */
	c->R |= c->LKR | c->LF | c->RU;
	c->W |= c->LKW;
	c->Release |= c->UL;
	c->Acquire |= c->LKR;
	/* let critical = ([LKW] ; po-loc ; [UL]) \
	 *	(po-loc ; [LKW | UL] ; po-loc) */
	t = rel_restrict(&c->po_loc, c->LKW, c->UL);
	u = rel_restrict(&c->po_loc, c->all, c->LKW | c->UL);
	u = rel_seq(&u, &c->po_loc);
	critical = rel_minus(&t, &u);
	critical_dom = rel_domain(&critical);
	/* flag ~empty UL \ range(critical) as unmatched-unlock */
	if (c->UL & ~rel_range(&critical))
		c->flags |= LKMM_FLAG_UNMATCHED_UNLOCK;
	/* let UNMATCHED-LKW = LKW \ domain(critical)
	 * empty ([UNMATCHED-LKW] ; loc ; [UNMATCHED-LKW]) \ id
	 *	as unmatched-locks */
	unmatched_lkw = c->LKW & ~critical_dom;
	t = rel_restrict(&c->loc, unmatched_lkw, unmatched_lkw);
	t = rel_minus(&t, &c->id);
	if (!rel_is_empty(&t))
		return LKMM_UNMATCHED_LOCKS;
	/* let rfi-lf = ([LKW] ; po-loc ; [LF]) \
	 *	([LKW] ; po-loc ; [UL] ; po-loc)
	 * with rfe-lf from cross(all-possible-rfe-lf)
	 * with rf-ru from cross(all-possible-rf-ru)
	 * let rf = rf | rf-lf | rf-ru
	 * The candidate's rf holds these choices already
	 * (lkmm_lock_rf_allowed() is what the enumerator chose them by). */
	/* let co0 = co0 | ([IW] ; loc ; [LKW]) |
	 *	(([LKW] ; loc ; [UNMATCHED-LKW]) \ [UNMATCHED-LKW])
	 * include "cos-opt.cat": co is a total order per location that
	 * extends co0; the enumerator makes every total order with IW
	 * first, those that do not extend co0 stop here. */
	co0 = rel_restrict(&c->loc, c->LKW, unmatched_lkw);
	t = rel_id(unmatched_lkw);
	co0 = rel_minus(&co0, &t);
	for (int i = 0; i < x->n; i++)
		if (x->ev[i].loc >= 0 && x->ev[i].loc < 64 &&
		    (x->open_locs >> x->ev[i].loc & 1))
			co0.r[i] = 0;
	t = rel_minus(&co0, &x->co);
	if (!rel_is_empty(&t))
		return LKMM_CO0;
	/* let W = W | UL
	 * let M = R | W */
	c->W |= c->UL;
	c->M = c->R | c->W;
	/* let co = (co | critical | (critical^-1 ; co))+ */
	t = rel_inv(&critical);
	t = rel_seq(&t, &x->co);
	co1 = rel_or(&x->co, &critical);
	co1 = rel_or(&co1, &t);
	c->co = rel_plus(&co1);
	c->coe = rel_and(&c->co, &c->ext);
	c->coi = rel_and(&c->co, &c->intr);
	/* let rf = rf | ([IW | UL] ; singlestep(co) ; lk-rmw^-1) */
	t = rel_singlestep(&c->co);
	t = rel_restrict(&t, c->IW | c->UL, c->all);
	u = rel_inv(&lk_rmw);
	t = rel_seq(&t, &u);
	c->rf = rel_or(&x->rf, &t);
	c->rfe = rel_and(&c->rf, &c->ext);
	c->rfi = rel_and(&c->rf, &c->intr);
	/* let fr = rf^-1 ; co */
	t = rel_inv(&c->rf);
	c->fr = rel_seq(&t, &c->co);
	c->fre = rel_and(&c->fr, &c->ext);
	c->fri = rel_and(&c->fr, &c->intr);
	return LKMM_OK;
}

static bool po_loc_has(const struct lkmm_exec *x, int i, int j)
{
	return i < j && x->ev[i].thread >= 0 &&
	       x->ev[i].thread == x->ev[j].thread && x->ev[i].loc == x->ev[j].loc;
}

bool lkmm_lock_rf_allowed(const struct lkmm_exec *x, int w, int r)
{
	const struct lkmm_event *we = &x->ev[w], *re = &x->ev[r];
	bool ext = we->thread != re->thread || we->thread < 0;

	if (we->loc != re->loc)
		return false;
	if (re->tags & (LKMM_LF | LKMM_RL)) {
		/* rfi-lf: the LKW whose critical section (so far) holds r */
		int in = -1;

		for (int k = 0; k < r; k++) {
			if (!po_loc_has(x, k, r))
				continue;
			if (x->ev[k].tags & LKMM_LKW)
				in = k;
			else if (x->ev[k].tags & LKMM_UL)
				in = -1;
		}
		if (in >= 0)
			return w == in;
		/* (LKW * {r}) & loc & ext, for r not in range(rfi-lf) */
		return (we->tags & LKMM_LKW) && ext;
	}
	if (re->tags & LKMM_RU) {
		/* ((UL | IW) * {r}) & loc & ext */
		if ((we->tags & (LKMM_UL | LKMM_IW)) && ext)
			return true;
		/* ((UL * {r}) & po-loc) \ ([UL] ; po-loc ; [LKW] ; po-loc) */
		if (!(we->tags & LKMM_UL) || !po_loc_has(x, w, r))
			return false;
		for (int k = w + 1; k < r; k++)
			if ((x->ev[k].tags & LKMM_LKW) && po_loc_has(x, w, k) &&
			    po_loc_has(x, k, r))
				return false;
		return true;
	}
	return false;
}
