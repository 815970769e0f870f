// SPDX-License-Identifier: GPL-2.0
/*
 * The relation algebra of rel.h on bit matrices.
 */
#include "rel.h"

int rel_n;

struct rel rel_or(const struct rel *a, const struct rel *b)
{
	struct rel c;

	for (int i = 0; i < rel_n; i++)
		c.r[i] = a->r[i] | b->r[i];
	return c;
}

struct rel rel_and(const struct rel *a, const struct rel *b)
{
	struct rel c;

	for (int i = 0; i < rel_n; i++)
		c.r[i] = a->r[i] & b->r[i];
	return c;
}

struct rel rel_minus(const struct rel *a, const struct rel *b)
{
	struct rel c;

	for (int i = 0; i < rel_n; i++)
		c.r[i] = a->r[i] & ~b->r[i];
	return c;
}

struct rel rel_seq(const struct rel *a, const struct rel *b)
{
	struct rel c;

	for (int i = 0; i < rel_n; i++) {
		lkmm_set s = a->r[i], out = 0;

		while (s) {
			int j = __builtin_ctzll(s);

			s &= s - 1;
			out |= b->r[j];
		}
		c.r[i] = out;
	}
	return c;
}

struct rel rel_inv(const struct rel *a)
{
	struct rel c;

	rel_zero(&c);
	for (int i = 0; i < rel_n; i++) {
		lkmm_set s = a->r[i];

		while (s) {
			int j = __builtin_ctzll(s);

			s &= s - 1;
			c.r[j] |= set_bit(i);
		}
	}
	return c;
}

/* Warshall's algorithm, a row at a time. */
struct rel rel_plus(const struct rel *a)
{
	struct rel c = *a;

	for (int k = 0; k < rel_n; k++)
		for (int i = 0; i < rel_n; i++)
			if (c.r[i] & set_bit(k))
				c.r[i] |= c.r[k];
	return c;
}

struct rel rel_star(const struct rel *a)
{
	struct rel c = rel_plus(a);

	for (int i = 0; i < rel_n; i++)
		c.r[i] |= set_bit(i);
	return c;
}

struct rel rel_opt(const struct rel *a)
{
	struct rel c = *a;

	for (int i = 0; i < rel_n; i++)
		c.r[i] |= set_bit(i);
	return c;
}

struct rel rel_id(lkmm_set s)
{
	struct rel c;

	for (int i = 0; i < rel_n; i++)
		c.r[i] = s & set_bit(i);
	return c;
}

struct rel rel_restrict(const struct rel *a, lkmm_set s, lkmm_set t)
{
	struct rel c;

	for (int i = 0; i < rel_n; i++)
		c.r[i] = s & set_bit(i) ? a->r[i] & t : 0;
	return c;
}

struct rel rel_cross(lkmm_set s, lkmm_set t)
{
	struct rel c;

	for (int i = 0; i < rel_n; i++)
		c.r[i] = s & set_bit(i) ? t : 0;
	return c;
}

lkmm_set rel_domain(const struct rel *a)
{
	lkmm_set s = 0;

	for (int i = 0; i < rel_n; i++)
		if (a->r[i])
			s |= set_bit(i);
	return s;
}

lkmm_set rel_range(const struct rel *a)
{
	lkmm_set s = 0;

	for (int i = 0; i < rel_n; i++)
		s |= a->r[i];
	return s;
}

struct rel rel_singlestep(const struct rel *a)
{
	struct rel aa = rel_seq(a, a);

	return rel_minus(a, &aa);
}

bool rel_is_empty(const struct rel *a)
{
	for (int i = 0; i < rel_n; i++)
		if (a->r[i])
			return false;
	return true;
}

bool rel_irreflexive(const struct rel *a)
{
	for (int i = 0; i < rel_n; i++)
		if (a->r[i] & set_bit(i))
			return false;
	return true;
}

bool rel_acyclic(const struct rel *a)
{
	struct rel c = rel_plus(a);

	return rel_irreflexive(&c);
}

bool rel_eq(const struct rel *a, const struct rel *b)
{
	for (int i = 0; i < rel_n; i++)
		if (a->r[i] != b->r[i])
			return false;
	return true;
}
