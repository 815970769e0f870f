/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SHIM_LINUX_KSTRTOX_H
#define _SHIM_LINUX_KSTRTOX_H

#include <stdio.h>

#endif
