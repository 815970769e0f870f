// SPDX-License-Identifier: GPL-2.0
/*
 * A program with functions of its own named as the kernel's (and as
 * the explorer's internals), beside klist: it must link against each
 * installed library, static and shared, and call its own functions,
 * not the library's.  names.sh generates names-defs.h, one definition
 * per name of cmake/klist-port-kernel-names.txt plus the internals.
 */
#include <klist-port/klist.h>
#include <stdio.h>

static int calls;

#define NAME(n)	void n(void); void n(void) { calls++; }
#include "names-defs.h"
#undef NAME

int main(void)
{
	struct klist_node a = KLIST_NODE_INIT;
	struct klist_iter it;
	struct klist k;
	int want = 0, nodes = 0;

#define NAME(n)	n(); want++;
#include "names-defs.h"
#undef NAME
	klist_init(&k, 0, 0);
	klist_add_tail(&a, &k);
	klist_iter_init(&k, &it);
	while (klist_next(&it))
		nodes++;
	klist_iter_exit(&it);
	klist_remove(&a);
	if (calls != want || nodes != 1 || klist_fini(&k)) {
		printf("names: %d of %d own functions called, %d nodes\n", calls, want, nodes);
		return 1;
	}
	printf("names: %d own functions of kernel and internal names, and klist: ok\n", calls);
	return 0;
}
