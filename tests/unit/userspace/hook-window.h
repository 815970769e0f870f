/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A window held open from a shim hook (shim_on_unlock): the hook lets
 * another task go and waits, at most @ms, for it to finish, so the
 * other task's whole operation runs between two steps of the hooked
 * one.  Userspace only (the shim's clock and hooks).
 */
#ifndef _HOOK_WINDOW_H
#define _HOOK_WINDOW_H

#include <sched.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <shim/shim.h>

/* True if @finished was set (with release) inside the window. */
static inline bool hook_window_hold(struct completion *go, atomic_t *finished,
				    long ms)
{
	long end = shim_now_ms() + ms;

	complete(go);
	while (!atomic_read_acquire(finished) && shim_now_ms() < end)
		sched_yield();
	return atomic_read(finished);
}

#endif
