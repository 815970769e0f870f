/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klist-port-fast: WARN() reports and carries on.  Each WARN site prints
 * once to stderr (a production program must not be flooded or stopped
 * by a misuse that klist survives), and every hit is counted, so a test
 * or a monitor can ask kfast_warn_count() afterwards.  BUG_ON() aborts,
 * as it oopses in the kernel.
 */
#ifndef _KFAST_LINUX_BUG_H
#define _KFAST_LINUX_BUG_H

#include <stdbool.h>
#include <stdlib.h>
#include <linux/compiler.h>

void kfast_warn(bool *once, const char *file, int line, const char *fmt, ...)
	__printf(4, 5) __cold;

#define WARN(condition, format...) ({					\
	int __ret_warn_on = !!(condition);				\
	if (unlikely(__ret_warn_on)) {					\
		static bool __warned;					\
		kfast_warn(&__warned, __FILE__, __LINE__, format);	\
	}								\
	unlikely(__ret_warn_on);					\
})

#define WARN_ON(condition)						\
	WARN(condition, "WARN_ON(%s)\n", #condition)
#define WARN_ONCE(condition, format...)	WARN(condition, format)
#define WARN_ON_ONCE(condition)		WARN_ON(condition)

#define BUG()		abort()
#define BUG_ON(condition) do { if (unlikely(condition)) BUG(); } while (0)

#define BUILD_BUG_ON(condition)	_Static_assert(!(condition), #condition)

#endif
