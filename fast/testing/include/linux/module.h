/* SPDX-License-Identifier: GPL-2.0 */
/* klist-port-fast, testing: module metadata means nothing here. */
#ifndef _KFAST_TESTING_LINUX_MODULE_H
#define _KFAST_TESTING_LINUX_MODULE_H

#define MODULE_LICENSE(x)
#define MODULE_DESCRIPTION(x)
#define MODULE_AUTHOR(x)
#define THIS_MODULE	((void *)0)

#endif
