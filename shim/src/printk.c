// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel log: printk() writes to stderr and keeps what it wrote in
 * a buffer, which tests search with shim_log_contains().  And
 * scnprintf(), the kernel's bounded formatting.
 */
/* Bookkeeping here is no scheduling point (<shim/ctl-hook.h>). */
#define SHIM_INTERNAL

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <linux/kernel.h>
#include <shim/shim.h>

#define LOG_SIZE	(64 * 1024)

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static char log_buf[LOG_SIZE];
static size_t log_len;

static void log_append(const char *s)
{
	size_t n = strlen(s);

	pthread_mutex_lock(&log_lock);
	if (log_len + n >= LOG_SIZE)	/* keep the newest half */
		log_len = 0;
	memcpy(log_buf + log_len, s, n + 1);
	log_len += n;
	pthread_mutex_unlock(&log_lock);
}

int printk(const char *fmt, ...)
{
	char buf[1024];
	const char *text = buf;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (buf[0] == KERN_SOH[0] && buf[1])
		text += 2;
	log_append(text);
	fputs(text, stderr);
	return n;
}

bool shim_log_contains(const char *s)
{
	bool found;

	pthread_mutex_lock(&log_lock);
	found = strstr(log_buf, s) != NULL;
	pthread_mutex_unlock(&log_lock);
	return found;
}

void shim_log_clear(void)
{
	pthread_mutex_lock(&log_lock);
	log_len = 0;
	log_buf[0] = '\0';
	pthread_mutex_unlock(&log_lock);
}

int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!size)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n < 0 ? 0 : ((size_t)n >= size ? (int)size - 1 : n);
}
