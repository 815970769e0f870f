/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klist-port-fast: tasks are threads.  A task sleeps in schedule() on a
 * futex, its state word, until wake_up_process() sets it running, with
 * the kernel's pairing: set_current_state() is a store and a full
 * barrier, so a wake-up between the sleeper's test and schedule() is
 * not lost.  A task_struct is never given back to the C library: once
 * its thread has exited and its last reference is put it goes on a
 * free list for the next thread.  So a late wake_up_process() on a task
 * that has gone (klist_release() may wake a remover that already
 * returned) touches a task_struct, at worst another thread's, which
 * then sees a spurious wake-up, as every sleeper loop allows; that is
 * what RCU gives the kernel's klist.
 */
#ifndef _KFAST_LINUX_SCHED_H
#define _KFAST_LINUX_SCHED_H

#ifdef __has_include_next
#if __has_include_next(<linux/sched.h>)
#include_next <linux/sched.h>
#endif
#endif

#include <linux/compiler.h>
#include <linux/refcount.h>

#define TASK_RUNNING		0x0000
#define TASK_INTERRUPTIBLE	0x0001
#define TASK_UNINTERRUPTIBLE	0x0002
#define TASK_COMM_LEN		16

struct task_struct {
	unsigned int __state;		/* the futex word */
	refcount_t usage;		/* the thread's own, and get_task_struct()'s */
	char comm[TASK_COMM_LEN];
	void *private;			/* for whoever started the thread */
	struct task_struct *free_next;	/* on the free list */
};

struct task_struct *kfast_current(void);
#define current	kfast_current()

#define set_current_state(state)	smp_store_mb(current->__state, (state))
#define __set_current_state(state)	WRITE_ONCE(current->__state, (state))

/* The runtime's symbols all carry kfast_: a program may have a schedule(). */
void kfast_schedule(void);
int kfast_wake_up_process(struct task_struct *p);
void kfast_cond_resched(void);
#define schedule()		kfast_schedule()
#define wake_up_process(p)	kfast_wake_up_process(p)
#define cond_resched()		kfast_cond_resched()

/* Nothing to check in this flavour; the checked one does. */
#define might_sleep()	do { } while (0)

#endif
