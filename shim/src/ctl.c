// SPDX-License-Identifier: GPL-2.0
/*
 * The door to the explorer (<shim/ctl-hook.h>): the hook table the
 * explorer installs for a controlled run.  The shim's sources reach the
 * explorer only through it (the shim_hook_*() wrappers of
 * shim-internal.h), so shim/src names no function of shim/explore/.
 */
#define SHIM_INTERNAL

#include "shim-internal.h"

int shim_ctl_active;
const struct shim_ctl_ops *shim_ctl_ops;

void shim_ctl_install(const struct shim_ctl_ops *ops)
{
	shim_ctl_ops = ops;
	shim_ctl_active = ops != NULL;
}
