/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klist-port-fast's own interface: what a program may want beyond the
 * kernel APIs the flavour provides.
 */
#ifndef _KFAST_KFAST_H
#define _KFAST_KFAST_H

#include <linux/sched.h>

/* Defined for code built on this flavour (set by its targets too). */
#ifndef KLIST_PORT_FAST
#define KLIST_PORT_FAST 1
#endif

/* WARN()s hit so far in this process, printed or not. */
unsigned long kfast_warn_count(void);

/*
 * For thread creators: a task_struct for a thread that does not run yet
 * (one reference, the thread's), and the call the new thread makes
 * first to take it as its current.  The reference is dropped when the
 * thread exits.
 */
struct task_struct *kfast_task_alloc(const char *comm);
void kfast_task_attach(struct task_struct *t);

#endif
