// SPDX-License-Identifier: GPL-2.0
/* The client requests behind shim/valgrind.h (no-ops outside valgrind). */
/* Bookkeeping here is no scheduling point (<shim/ctl-hook.h>). */
#define SHIM_INTERNAL

#include <shim/valgrind.h>

#ifdef SHIM_VALGRIND
#include <valgrind/helgrind.h>
#include <valgrind/drd.h>

bool shim_on_valgrind(void)
{
	return RUNNING_ON_VALGRIND;
}

void shim_vg_marked(void *addr, size_t size)
{
	VALGRIND_HG_DISABLE_CHECKING(addr, size);
	ANNOTATE_BENIGN_RACE_SIZED(addr, size, "marked access");
}

void shim_vg_release(void *addr)
{
	ANNOTATE_HAPPENS_BEFORE(addr);
}

void shim_vg_acquire(void *addr)
{
	ANNOTATE_HAPPENS_AFTER(addr);
}

void shim_vg_new_memory(void *addr, size_t size)
{
	VALGRIND_HG_CLEAN_MEMORY(addr, size);
	ANNOTATE_NEW_MEMORY(addr, size);	/* DRD's, from drd.h */
}
#endif
