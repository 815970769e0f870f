// SPDX-License-Identifier: GPL-2.0
/*
 * refcount_t's overflow check in a program's own flags: built at -O2
 * with -fstrict-overflow (what a user's build may have), an increment
 * past INT_MAX must still warn and saturate.  A signed "old + i < 0"
 * check is undefined there and may be compiled away
 * (defects/refcount-signed-overflow-check.patch: this program fails).
 */
#include <limits.h>
#include <stdio.h>

#include <kfast/kfast.h>
#include <linux/refcount.h>

static int check(const char *what, refcount_t *r, unsigned long warns_before)
{
	int v = (int)refcount_read(r);

	if (v != REFCOUNT_SATURATED || kfast_warn_count() == warns_before) {
		printf("%s from INT_MAX: %d, %lu warnings (want %d and a warning)\n",
		       what, v, kfast_warn_count() - warns_before, REFCOUNT_SATURATED);
		return 1;
	}
	printf("%s from INT_MAX: saturated, warned\n", what);
	return 0;
}

int main(void)
{
	refcount_t r;
	unsigned long before;
	int bad = 0;

	refcount_set(&r, INT_MAX);
	before = kfast_warn_count();
	refcount_inc(&r);
	bad |= check("refcount_inc()", &r, before);

	refcount_set(&r, INT_MAX - 1);
	before = kfast_warn_count();
	refcount_add(2, &r);
	bad |= check("refcount_add(2)", &r, before);

	refcount_set(&r, INT_MAX);
	before = kfast_warn_count();
	if (!refcount_inc_not_zero(&r))
		bad = 1;
	bad |= check("refcount_inc_not_zero()", &r, before);
	return bad;
}
