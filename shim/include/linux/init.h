/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: stub - for include/linux/init.h (v6.1); leaves out the init
 *   sections: nothing is freed after init.
 */
#ifndef _SHIM_LINUX_INIT_H
#define _SHIM_LINUX_INIT_H

#define __init
#define __exit
#define __initdata

#endif
