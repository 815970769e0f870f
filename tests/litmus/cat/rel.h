/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Relations over at most 64 events as bit matrices: row i holds the
 * events j with i -> j.  The algebra of the cat language (union ||,
 * intersection &, difference \, sequence ;, inverse ^-1, closures + and
 * *, [S] the identity on a set S, S1 * S2 the cartesian product), each
 * one function, and the three checks (acyclic, irreflexive, empty).
 */
#ifndef _LKMM_REL_H
#define _LKMM_REL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define LKMM_MAX_EVENTS	64

typedef uint64_t lkmm_set;

struct rel {
	lkmm_set r[LKMM_MAX_EVENTS];
};

/* The universe: how many events the relations range over. */
extern int rel_n;

static inline lkmm_set set_bit(int i)
{
	return (lkmm_set)1 << i;
}

static inline void rel_zero(struct rel *a)
{
	memset(a->r, 0, sizeof(a->r[0]) * (size_t)rel_n);
}

static inline bool rel_has(const struct rel *a, int i, int j)
{
	return a->r[i] >> j & 1;
}

static inline void rel_add(struct rel *a, int i, int j)
{
	a->r[i] |= set_bit(j);
}

/* a | b */
struct rel rel_or(const struct rel *a, const struct rel *b);
/* a & b */
struct rel rel_and(const struct rel *a, const struct rel *b);
/* a \ b */
struct rel rel_minus(const struct rel *a, const struct rel *b);
/* a ; b */
struct rel rel_seq(const struct rel *a, const struct rel *b);
/* a^-1 */
struct rel rel_inv(const struct rel *a);
/* a+ */
struct rel rel_plus(const struct rel *a);
/* a* */
struct rel rel_star(const struct rel *a);
/* a? */
struct rel rel_opt(const struct rel *a);
/* [s] */
struct rel rel_id(lkmm_set s);
/* [s] ; a ; [t] */
struct rel rel_restrict(const struct rel *a, lkmm_set s, lkmm_set t);
/* s * t */
struct rel rel_cross(lkmm_set s, lkmm_set t);
/* domain(a), range(a) */
lkmm_set rel_domain(const struct rel *a);
lkmm_set rel_range(const struct rel *a);
/* singlestep(a) = a \ (a ; a): the immediate steps of an order */
struct rel rel_singlestep(const struct rel *a);

bool rel_is_empty(const struct rel *a);
bool rel_irreflexive(const struct rel *a);
bool rel_acyclic(const struct rel *a);
bool rel_eq(const struct rel *a, const struct rel *b);

#endif
