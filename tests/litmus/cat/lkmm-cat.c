// SPDX-License-Identifier: GPL-2.0
/*
 * linux-kernel.cat (6.1) in C: every relation the cat file defines,
 * in its order, each under the lines it implements, and its four
 * axioms and two flags.  lkmm-bell.c supplies what the cat takes as
 * given (the bell file, lock.cat, herd7's built-ins).
 */
#include "lkmm-internal.h"

/* [s] ; a ; [t] with s, t the same set */
static struct rel only(const struct rel *a, lkmm_set s)
{
	return rel_restrict(a, s, s);
}

#define OR(a, b)	({ struct rel _a = (a), _b = (b); rel_or(&_a, &_b); })
#define AND(a, b)	({ struct rel _a = (a), _b = (b); rel_and(&_a, &_b); })
#define MINUS(a, b)	({ struct rel _a = (a), _b = (b); rel_minus(&_a, &_b); })
#define SEQ(a, b)	({ struct rel _a = (a), _b = (b); rel_seq(&_a, &_b); })
#define INV(a)		({ struct rel _a = (a); rel_inv(&_a); })
#define PLUS(a)		({ struct rel _a = (a); rel_plus(&_a); })
#define STAR(a)		({ struct rel _a = (a); rel_star(&_a); })
#define OPT(a)		({ struct rel _a = (a); rel_opt(&_a); })
#define ID(s)		rel_id(s)
#define RESTRICT(a, s, t) ({ struct rel _a = (a); rel_restrict(&_a, (s), (t)); })

enum lkmm_axiom lkmm_check(const struct lkmm_exec *x, unsigned int *flags)
{
	static struct lkmm_ctx c;	/* (large: off the stack) */
	struct rel acq_po, po_rel, po_unlock_lock_po, rmb, wmb, mb, gp;
	struct rel strong_fence, nonrw_fence, fence, barrier, com;
	struct rel dep, rwdep, overwrite, to_w, to_r, ppo, cumul_fence, prop;
	struct rel hb, hbstar, pb, pbstar, rcu_link, rcu_rscsi, rcu_order;
	struct rel rcu_gp, rcu_fence, rb, xbstar, vis, mixed;
	struct rel srcu_gp, srcu_rscsi;
	struct rel w_pre_bounded, r_pre_bounded, w_post_bounded;
	struct rel r_post_bounded, ww_vis, wr_vis, rw_xbstar, pre_race;
	struct rel incoh, ww_nonrace, race, t;
	lkmm_set R4rmb, all;
	enum lkmm_axiom a;

	*flags = 0;
	a = lkmm_bell(x, &c);
	if (a != LKMM_OK)
		return a;
	all = c.all;

	/* let acq-po = [Acquire] ; po ; [M]
	 * let po-rel = [M] ; po ; [Release]
	 * let po-unlock-lock-po = po ; [UL] ; (po|rf) ; [LKR] ; po */
	acq_po = rel_restrict(&c.po, c.Acquire, c.M);
	po_rel = rel_restrict(&c.po, c.M, c.Release);
	po_unlock_lock_po = SEQ(SEQ(RESTRICT(c.po, all, c.UL),
				    RESTRICT(OR(c.po, c.rf), all, c.LKR)), c.po);

	/* let R4rmb = R \ Noreturn
	 * let rmb = [R4rmb] ; fencerel(Rmb) ; [R4rmb]
	 * let wmb = [W] ; fencerel(Wmb) ; [W] */
	R4rmb = c.R & ~c.Noreturn;
	rmb = RESTRICT(lkmm_fencerel(&c, c.Rmb), R4rmb, R4rmb);
	wmb = RESTRICT(lkmm_fencerel(&c, c.Wmb), c.W, c.W);
	/* let mb = ([M] ; fencerel(Mb) ; [M]) |
	 *	([M] ; fencerel(Before-atomic) ; [RMW] ; po? ; [M]) |
	 *	([M] ; po? ; [RMW] ; fencerel(After-atomic) ; [M]) |
	 *	([M] ; po? ; [LKW] ; fencerel(After-spinlock) ; [M]) |
	 *	([M] ; po ; [UL] ; (co | po) ; [LKW] ;
	 *		fencerel(After-unlock-lock) ; [M]) */
	mb = RESTRICT(lkmm_fencerel(&c, c.Mb), c.M, c.M);
	mb = OR(mb, RESTRICT(SEQ(RESTRICT(lkmm_fencerel(&c, c.Before_atomic), c.M, c.RMW),
				 OPT(c.po)), all, c.M));
	mb = OR(mb, RESTRICT(SEQ(RESTRICT(OPT(c.po), c.M, c.RMW),
				 lkmm_fencerel(&c, c.After_atomic)), all, c.M));
	mb = OR(mb, RESTRICT(SEQ(RESTRICT(OPT(c.po), c.M, c.LKW),
				 lkmm_fencerel(&c, c.After_spinlock)), all, c.M));
	mb = OR(mb, RESTRICT(SEQ(SEQ(RESTRICT(c.po, c.M, c.UL),
				     RESTRICT(OR(c.co, c.po), all, c.LKW)),
				 lkmm_fencerel(&c, c.After_unlock_lock)), all, c.M));
	/* let gp = po ; [Sync-rcu | Sync-srcu] ; po?
	 * let strong-fence = mb | gp */
	gp = SEQ(RESTRICT(c.po, all, c.Sync_rcu | c.Sync_srcu), OPT(c.po));
	strong_fence = OR(mb, gp);

	/* let nonrw-fence = strong-fence | po-rel | acq-po
	 * let fence = nonrw-fence | wmb | rmb
	 * let barrier = fencerel(Barrier | Rmb | Wmb | Mb | Sync-rcu |
	 *	Sync-srcu | Before-atomic | After-atomic | Acquire | Release |
	 *	Rcu-lock | Rcu-unlock | Srcu-lock | Srcu-unlock) |
	 *	(po ; [Release]) | ([Acquire] ; po) */
	nonrw_fence = OR(OR(strong_fence, po_rel), acq_po);
	fence = OR(OR(nonrw_fence, wmb), rmb);
	barrier = lkmm_fencerel(&c, c.Barrier | c.Rmb | c.Wmb | c.Mb | c.Sync_rcu |
				c.Sync_srcu | c.Before_atomic | c.After_atomic |
				c.Acquire | c.Release | c.Rcu_lock | c.Rcu_unlock |
				c.Srcu_lock | c.Srcu_unlock);
	barrier = OR(barrier, RESTRICT(c.po, all, c.Release));
	barrier = OR(barrier, RESTRICT(c.po, c.Acquire, all));

	/* let com = rf | co | fr
	 * acyclic po-loc | com as coherence */
	com = OR(OR(c.rf, c.co), c.fr);
	t = OR(c.po_loc, com);
	if (!rel_acyclic(&t))
		return LKMM_COHERENCE;
	/* empty rmw & (fre ; coe) as atomic */
	t = AND(c.rmw, SEQ(c.fre, c.coe));
	if (!rel_is_empty(&t))
		return LKMM_ATOMIC;

	/* let dep = addr | data
	 * let rwdep = (dep | ctrl) ; [W]
	 * let overwrite = co | fr
	 * let to-w = rwdep | (overwrite & int) | (addr ; [Plain] ; wmb)
	 * let to-r = addr | (dep ; [Marked] ; rfi)
	 * let ppo = to-r | to-w | fence | (po-unlock-lock-po & int) */
	dep = OR(c.addr, c.data);
	rwdep = RESTRICT(OR(dep, c.ctrl), all, c.W);
	overwrite = OR(c.co, c.fr);
	to_w = OR(OR(rwdep, AND(overwrite, c.intr)),
		  SEQ(RESTRICT(c.addr, all, c.Plain), wmb));
	to_r = OR(c.addr, SEQ(RESTRICT(dep, all, c.Marked), c.rfi));
	ppo = OR(OR(OR(to_r, to_w), fence), AND(po_unlock_lock_po, c.intr));

	/* let A-cumul(r) = (rfe ; [Marked])? ; r
	 * let cumul-fence = [Marked] ; (A-cumul(strong-fence | po-rel) | wmb |
	 *	po-unlock-lock-po) ; [Marked]
	 * let prop = [Marked] ; (overwrite & ext)? ; cumul-fence* ;
	 *	[Marked] ; rfe? ; [Marked] */
	cumul_fence = SEQ(OPT(RESTRICT(c.rfe, all, c.Marked)), OR(strong_fence, po_rel));
	cumul_fence = OR(OR(cumul_fence, wmb), po_unlock_lock_po);
	cumul_fence = only(&cumul_fence, c.Marked);
	prop = SEQ(SEQ(RESTRICT(OPT(AND(overwrite, c.ext)), c.Marked, all),
		       STAR(cumul_fence)),
		   RESTRICT(OPT(c.rfe), c.Marked, c.Marked));

	/* let hb = [Marked] ; (ppo | rfe | ((prop \ id) & int)) ; [Marked]
	 * acyclic hb as happens-before */
	hb = OR(OR(ppo, c.rfe), AND(MINUS(prop, c.id), c.intr));
	hb = only(&hb, c.Marked);
	if (!rel_acyclic(&hb))
		return LKMM_HAPPENS_BEFORE;
	hbstar = rel_star(&hb);

	/* let pb = prop ; strong-fence ; hb* ; [Marked]
	 * acyclic pb as propagation */
	pb = RESTRICT(SEQ(SEQ(prop, strong_fence), hbstar), all, c.Marked);
	if (!rel_acyclic(&pb))
		return LKMM_PROPAGATION;
	pbstar = rel_star(&pb);

	/* let rcu-gp = [Sync-rcu]
	 * let srcu-gp = [Sync-srcu]
	 * let rcu-rscsi = rcu-rscs^-1
	 * let srcu-rscsi = srcu-rscs^-1
	 * let rcu-link = po? ; hb* ; pb* ; prop ; po */
	rcu_gp = ID(c.Sync_rcu);
	srcu_gp = ID(c.Sync_srcu);
	rcu_rscsi = rel_inv(&c.rcu_rscs);
	srcu_rscsi = rel_inv(&c.srcu_rscs);
	rcu_link = SEQ(SEQ(SEQ(SEQ(OPT(c.po), hbstar), pbstar), prop), c.po);
	/* let rec rcu-order = rcu-gp | srcu-gp |
	 *	(rcu-gp ; rcu-link ; rcu-rscsi) |
	 *	((srcu-gp ; rcu-link ; srcu-rscsi) & loc) |
	 *	(rcu-rscsi ; rcu-link ; rcu-gp) |
	 *	((srcu-rscsi ; rcu-link ; srcu-gp) & loc) |
	 *	(rcu-gp ; rcu-link ; rcu-order ; rcu-link ; rcu-rscsi) |
	 *	((srcu-gp ; rcu-link ; rcu-order ; rcu-link ; srcu-rscsi) & loc) |
	 *	(rcu-rscsi ; rcu-link ; rcu-order ; rcu-link ; rcu-gp) |
	 *	((srcu-rscsi ; rcu-link ; rcu-order ; rcu-link ; srcu-gp) & loc) |
	 *	(rcu-order ; rcu-link ; rcu-order) */
	rel_zero(&rcu_order);
	if (c.Sync_rcu | c.Sync_srcu) {
		for (;;) {
			struct rel next = OR(rcu_gp, srcu_gp);
			struct rel lo = SEQ(SEQ(rcu_link, rcu_order), rcu_link);

			next = OR(next, SEQ(SEQ(rcu_gp, rcu_link), rcu_rscsi));
			next = OR(next, AND(SEQ(SEQ(srcu_gp, rcu_link), srcu_rscsi), c.loc));
			next = OR(next, SEQ(SEQ(rcu_rscsi, rcu_link), rcu_gp));
			next = OR(next, AND(SEQ(SEQ(srcu_rscsi, rcu_link), srcu_gp), c.loc));
			next = OR(next, SEQ(SEQ(rcu_gp, lo), rcu_rscsi));
			next = OR(next, AND(SEQ(SEQ(srcu_gp, lo), srcu_rscsi), c.loc));
			next = OR(next, SEQ(SEQ(rcu_rscsi, lo), rcu_gp));
			next = OR(next, AND(SEQ(SEQ(srcu_rscsi, lo), srcu_gp), c.loc));
			next = OR(next, SEQ(SEQ(rcu_order, rcu_link), rcu_order));
			if (rel_eq(&next, &rcu_order))
				break;
			rcu_order = next;
		}
	}
	/* let rcu-fence = po ; rcu-order ; po?
	 * let fence = fence | rcu-fence
	 * let strong-fence = strong-fence | rcu-fence */
	rcu_fence = SEQ(SEQ(c.po, rcu_order), OPT(c.po));
	fence = OR(fence, rcu_fence);
	strong_fence = OR(strong_fence, rcu_fence);
	/* let rb = prop ; rcu-fence ; hb* ; pb* ; [Marked]
	 * irreflexive rb as rcu */
	rb = RESTRICT(SEQ(SEQ(SEQ(prop, rcu_fence), hbstar), pbstar), all, c.Marked);
	if (!rel_irreflexive(&rb))
		return LKMM_RCU;

	/* let mixed-accesses = ([Plain & W] ; (po-loc \ barrier) ; [Marked]) |
	 *	([Marked] ; (po-loc \ barrier) ; [Plain & W])
	 * flag ~empty mixed-accesses as mixed-accesses */
	t = MINUS(c.po_loc, barrier);
	mixed = OR(RESTRICT(t, c.Plain & c.W, c.Marked),
		   RESTRICT(t, c.Marked, c.Plain & c.W));
	if (!rel_is_empty(&mixed))
		c.flags |= LKMM_FLAG_MIXED_ACCESSES;

	/* let xbstar = (hb | pb | rb)*
	 * let vis = cumul-fence* ; rfe? ; [Marked] ;
	 *	((strong-fence ; [Marked] ; xbstar) | (xbstar & int)) */
	xbstar = STAR(OR(OR(hb, pb), rb));
	vis = SEQ(SEQ(STAR(cumul_fence), RESTRICT(OPT(c.rfe), all, c.Marked)),
		  OR(SEQ(RESTRICT(strong_fence, all, c.Marked), xbstar),
		     AND(xbstar, c.intr)));

	/* let w-pre-bounded = [Marked] ; (addr | fence)?
	 * let r-pre-bounded = [Marked] ; (addr | nonrw-fence |
	 *	([R4rmb] ; fencerel(Rmb) ; [~Noreturn]))?
	 * let w-post-bounded = fence? ; [Marked]
	 * let r-post-bounded = (nonrw-fence | ([~Noreturn] ; fencerel(Rmb) ;
	 *	[R4rmb]))? ; [Marked] */
	w_pre_bounded = RESTRICT(OPT(OR(c.addr, fence)), c.Marked, all);
	r_pre_bounded = RESTRICT(OPT(OR(OR(c.addr, nonrw_fence),
					RESTRICT(lkmm_fencerel(&c, c.Rmb), R4rmb,
						 all & ~c.Noreturn))),
				 c.Marked, all);
	w_post_bounded = RESTRICT(OPT(fence), all, c.Marked);
	r_post_bounded = RESTRICT(OPT(OR(nonrw_fence,
					 RESTRICT(lkmm_fencerel(&c, c.Rmb),
						  all & ~c.Noreturn, R4rmb))),
				  all, c.Marked);

	/* let ww-vis = fence | (strong-fence ; xbstar ; w-pre-bounded) |
	 *	(w-post-bounded ; vis ; w-pre-bounded)
	 * let wr-vis = fence | (strong-fence ; xbstar ; r-pre-bounded) |
	 *	(w-post-bounded ; vis ; r-pre-bounded)
	 * let rw-xbstar = fence | (r-post-bounded ; xbstar ; w-pre-bounded) */
	ww_vis = OR(OR(fence, SEQ(SEQ(strong_fence, xbstar), w_pre_bounded)),
		    SEQ(SEQ(w_post_bounded, vis), w_pre_bounded));
	wr_vis = OR(OR(fence, SEQ(SEQ(strong_fence, xbstar), r_pre_bounded)),
		    SEQ(SEQ(w_post_bounded, vis), r_pre_bounded));
	rw_xbstar = OR(fence, SEQ(SEQ(r_post_bounded, xbstar), w_pre_bounded));

	/* let pre-race = ext & ((Plain * M) | ((M \ IW) * Plain)) */
	pre_race = AND(c.ext, OR(rel_cross(c.Plain, c.M),
				 rel_cross(c.M & ~c.IW, c.Plain)));

	/* let wr-incoh = pre-race & rf & rw-xbstar^-1
	 * let rw-incoh = pre-race & fr & wr-vis^-1
	 * let ww-incoh = pre-race & co & ww-vis^-1
	 * empty (wr-incoh | rw-incoh | ww-incoh) as plain-coherence */
	incoh = AND(AND(pre_race, c.rf), INV(rw_xbstar));
	incoh = OR(incoh, AND(AND(pre_race, c.fr), INV(wr_vis)));
	incoh = OR(incoh, AND(AND(pre_race, c.co), INV(ww_vis)));
	if (!rel_is_empty(&incoh))
		return LKMM_PLAIN_COHERENCE;

	/* let ww-nonrace = ww-vis & ((Marked * W) | rw-xbstar) &
	 *	((W * Marked) | wr-vis)
	 * let ww-race = (pre-race & co) \ ww-nonrace
	 * let wr-race = (pre-race & (co? ; rf)) \ wr-vis \ rw-xbstar^-1
	 * let rw-race = (pre-race & fr) \ rw-xbstar
	 * flag ~empty (ww-race | wr-race | rw-race) as data-race */
	ww_nonrace = AND(AND(ww_vis, OR(rel_cross(c.Marked, c.W), rw_xbstar)),
			 OR(rel_cross(c.W, c.Marked), wr_vis));
	race = MINUS(AND(pre_race, c.co), ww_nonrace);
	race = OR(race, MINUS(MINUS(AND(pre_race, SEQ(OPT(c.co), c.rf)), wr_vis),
			      INV(rw_xbstar)));
	race = OR(race, MINUS(AND(pre_race, c.fr), rw_xbstar));
	if (!rel_is_empty(&race))
		c.flags |= LKMM_FLAG_DATA_RACE;

	*flags = c.flags;
	return LKMM_OK;
}
