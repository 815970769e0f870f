/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim kind: dup + strict - include/asm-generic/bug.h (v6.1), keep in sync;
 *   strict: every WARN fails the test, and the _ONCE ones warn every time.
 *
 * Userspace shim: WARN and BUG.  A WARN is a report (see shim/shim.h):
 * it fails the test unless the test expects it.  BUG never returns.
 */
#ifndef _SHIM_LINUX_BUG_H
#define _SHIM_LINUX_BUG_H

#include <linux/compiler.h>

void __shim_warn(const char *file, int line, const char *func,
		 const char *fmt, ...) __printf(4, 5);
void __shim_warn_on(const char *file, int line, const char *func);
void __shim_bug(const char *file, int line, const char *func) __noreturn;

#define WARN(condition, format...) ({					\
	int __ret_warn_on = !!(condition);				\
	if (unlikely(__ret_warn_on))					\
		__shim_warn(__FILE__, __LINE__, __func__, format);	\
	unlikely(__ret_warn_on);					\
})

#define WARN_ON(condition) ({						\
	int __ret_warn_on = !!(condition);				\
	if (unlikely(__ret_warn_on))					\
		__shim_warn_on(__FILE__, __LINE__, __func__);	\
	unlikely(__ret_warn_on);					\
})

/* Every WARN is reported: being stricter than _ONCE costs nothing here. */
#define WARN_ON_ONCE(condition)		WARN_ON(condition)
#define WARN_ONCE(condition, format...)	WARN(condition, format)

#define BUG()	__shim_bug(__FILE__, __LINE__, __func__)
#define BUG_ON(condition) do { if (unlikely(condition)) BUG(); } while (0)

#define BUILD_BUG_ON(condition)	_Static_assert(!(condition), #condition)

#endif
