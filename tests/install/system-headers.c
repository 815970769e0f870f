// SPDX-License-Identifier: GPL-2.0
/*
 * A user program with klist and the system's own <linux/...> headers:
 * with the installed Cflags, the system's UAPI types (__u16 in
 * <linux/input.h>) and the kernel's (u16) must both be there.
 */
#include <linux/klist.h>
#include <linux/input.h>
#include <linux/types.h>
#include <linux/sched.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/module.h>
#include <errno.h>
#include <stdio.h>

int main(void)
{
	struct input_event ev = { .type = EV_KEY };
	__u16 type = ev.type;
	u16 same = type;
	struct klist list;
	/* A node is added zeroed (kzalloc() in the kernel), never as found. */
	struct klist_node node = { 0 };
	int ok;

	klist_init(&list, NULL, NULL);
	klist_add_tail(&node, &list);
	ok = same == EV_KEY && klist_node_attached(&node) &&
	     (CLONE_VM & 0x100) && EINVAL == 22;
	klist_del(&node);
	printf("system headers alongside klist: %s\n", ok ? "ok" : "WRONG");
	return !ok;
}
