// SPDX-License-Identifier: GPL-2.0
/*
 * kmalloc and kfree with accounting.  Each block carries its call site;
 * live blocks made during a test are leaks when the test ends.  In the
 * plain build a block lives on guarded pages (guard.c): the first access
 * to it once freed, or past its end, is reported at once.  A block that
 * is not guarded (ASan, TSan, valgrind, sampled out, pool full) is
 * poisoned on kfree with the slab's POISON_FREE byte and kept in a
 * quarantine, so a later write to it is found when the quarantine is
 * checked (and under ASan or valgrind, any access at once).  The tools
 * see the redzone as unaddressable too: ASan poisons in 8-byte granules
 * and cannot poison the head of a granule whose tail is addressable, so
 * a small freed block is only poisoned together with its redzone.
 */
/* Bookkeeping here is no scheduling point (<shim/ctl-hook.h>). */
#define SHIM_INTERNAL

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/slab.h>
#include <shim/valgrind.h>
#include "shim-internal.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define mem_noaccess(p, n)	ASAN_POISON_MEMORY_REGION(p, n)
#define mem_access(p, n)	ASAN_UNPOISON_MEMORY_REGION(p, n)
#elif defined(__has_include) && __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define mem_noaccess(p, n)	VALGRIND_MAKE_MEM_NOACCESS(p, n)
#define mem_access(p, n)	VALGRIND_MAKE_MEM_DEFINED(p, n)
#else
#define mem_noaccess(p, n)	do { } while (0)
#define mem_access(p, n)	do { } while (0)
#endif

#define BLOCK_LIVE	0x6c697665a110c8edULL
#define BLOCK_FREED	0x6465616466726565ULL
#define POISON_FREE	0x6b
#define REDZONE_BYTE	0xcc
#define REDZONE		16
#define QUARANTINE_MAX	(16u << 20)	/* bytes kept poisoned before reuse */

struct block {
	unsigned long long magic;
	size_t size;
	const char *file, *free_file;
	int line, free_line;
	unsigned long gen;
	struct block *prev, *next;
	unsigned char *data;	/* mem[], or a block on guarded pages */
	unsigned char mem[] __attribute__((__aligned__(16)));
};

struct block_list {
	struct block *head, *tail;
	size_t bytes;
};

static pthread_mutex_t alloc_lock = PTHREAD_MUTEX_INITIALIZER;
static struct block_list live, quarantine;
static unsigned long generation;
static unsigned int fail_next;
static unsigned int fail_nth;	/* counts down; the allocation at 1 fails */
static unsigned int expected_leaks;

static void list_push(struct block_list *l, struct block *b)
{
	b->next = NULL;
	b->prev = l->tail;
	if (l->tail)
		l->tail->next = b;
	else
		l->head = b;
	l->tail = b;
	l->bytes += b->size;
}

static void list_unlink(struct block_list *l, struct block *b)
{
	if (b->prev)
		b->prev->next = b->next;
	else
		l->head = b->next;
	if (b->next)
		b->next->prev = b->prev;
	else
		l->tail = b->prev;
	l->bytes -= b->size;
}

/* Quarantined block still holds its poison? Caller holds alloc_lock. */
static bool poison_intact(struct block *b, size_t *where)
{
	size_t i;
	bool ok = true;

	mem_access(b->data, b->size);
	for (i = 0; i < b->size; i++) {
		if (b->data[i] != POISON_FREE) {
			*where = i;
			ok = false;
			break;
		}
	}
	mem_noaccess(b->data, b->size + REDZONE);
	return ok;
}

static int check_quarantined(struct block *b)
{
	size_t off;

	if (poison_intact(b, &off))
		return 0;
	shim_report(b->free_file, b->free_line,
		    "BUG: KASAN-like: use-after-free write at offset %zu of a %zu-byte block allocated at %s:%d, freed at %s:%d",
		    off, b->size, b->file, b->line, b->free_file, b->free_line);
	return 1;
}

/* Take one from *count if it is not zero; return what it was. */
static unsigned int count_down(unsigned int *count)
{
	unsigned int n = READ_ONCE(*count);

	while (n && !__atomic_compare_exchange_n(count, &n, n - 1, false,
						 __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		;
	return n;
}

static bool take_injected_failure(void)
{
	bool nth = count_down(&fail_nth) == 1;

	return count_down(&fail_next) != 0 || nth;
}

void *__shim_kmalloc(size_t size, gfp_t flags, const char *file, int line)
{
	struct block *b;

	if (gfpflags_allow_blocking(flags))
		__shim_might_sleep(file, line);
	/*
	 * No one object: the new block's initialisation, and often its
	 * publication, are plain stores in the transition that follows.
	 */
	shim_ctl_only(SHIM_OP_KMALLOC, NULL, false, file, line);
	if (take_injected_failure()) {
		if (!(flags & __GFP_NOWARN))
			printk(KERN_WARNING "shim: injected allocation failure at %s:%d\n",
			       file, line);
		return NULL;
	}
	b = NULL;
	if (shim_guard_wanted(size)) {
		b = malloc(sizeof(*b));
		if (!b)
			return NULL;
		b->data = shim_guard_alloc(size, file, line, b);
		if (!b->data) {
			free(b);
			b = NULL;
		}
	}
	if (!b) {
		b = malloc(sizeof(*b) + size + REDZONE);
		if (!b)
			return NULL;
		b->data = b->mem;
		memset(b->data + size, REDZONE_BYTE, REDZONE);
		mem_noaccess(b->data + size, REDZONE);
	}
	b->magic = BLOCK_LIVE;
	b->size = size;
	b->file = file;
	b->line = line;
	b->free_file = NULL;
	b->free_line = 0;
	memset(b->data, (flags & __GFP_ZERO) ? 0 : 0xa5, size);
	pthread_mutex_lock(&alloc_lock);
	b->gen = generation;
	list_push(&live, b);
	pthread_mutex_unlock(&alloc_lock);
	/* A new block: what its addresses saw before is no race of its own. */
	shim_hook_alloc(b->data, size);
	return b->data;
}

void __shim_kfree(const void *p, const char *file, int line)
{
	struct block *b;
	size_t i;

	if (!p)
		return;
	/*
	 * No one object: the block's bytes are the race detector's (the
	 * free is a write of each, below), so a use of the block that
	 * nothing orders with it is a race whichever runs first.
	 */
	shim_ctl_only(SHIM_OP_KFREE, NULL, false, file, line);
	/* Guarded first: the bytes before a guarded block are no header. */
	switch (shim_guard_free(p, file, line, (void **)&b)) {
	case SHIM_GUARD_REPORTED:
		return;
	case SHIM_GUARD_FREED:
		shim_hook_free(p, b->size, file, line);
		pthread_mutex_lock(&alloc_lock);
		list_unlink(&live, b);
		pthread_mutex_unlock(&alloc_lock);
		free(b);	/* guard.c keeps what a report needs */
		return;
	}
	b = container_of((void *)p, struct block, mem);
	/* (Unlocked: under the explorer one thread runs the run's tasks.) */
	if (shim_ctl_active && b->magic == BLOCK_LIVE)
		shim_hook_free(b->data, b->size, file, line);
	pthread_mutex_lock(&alloc_lock);
	if (b->magic != BLOCK_LIVE) {
		bool freed = b->magic == BLOCK_FREED;

		pthread_mutex_unlock(&alloc_lock);
		if (freed)
			shim_report(file, line,
				    "BUG: double free at %s:%d of a block allocated at %s:%d, first freed at %s:%d",
				    file, line, b->file, b->line, b->free_file, b->free_line);
		else
			shim_report(file, line, "BUG: kfree of %p at %s:%d: not a kmalloc block",
				    p, file, line);
		return;
	}
	mem_access(b->data + b->size, REDZONE);
	for (i = 0; i < REDZONE; i++) {
		if (b->data[b->size + i] != REDZONE_BYTE) {
			pthread_mutex_unlock(&alloc_lock);
			shim_report(file, line,
				    "BUG: out-of-bounds write past a %zu-byte block allocated at %s:%d (found at kfree, %s:%d)",
				    b->size, b->file, b->line, file, line);
			pthread_mutex_lock(&alloc_lock);
			break;
		}
	}
	list_unlink(&live, b);
	b->magic = BLOCK_FREED;
	b->free_file = file;
	b->free_line = line;
	memset(b->data, POISON_FREE, b->size);
	/*
	 * Dead to the race tools as free() would be: DRD keeps the
	 * happens-before objects of annotated addresses (atomics, locks)
	 * until their memory goes, and with them every segment they name,
	 * so a quarantine of live-looking blocks made its checks quadratic.
	 */
	shim_vg_new_memory(b->data, b->size);
	mem_noaccess(b->data, b->size + REDZONE);
	list_push(&quarantine, b);
	while (quarantine.bytes > QUARANTINE_MAX && quarantine.head != b) {
		struct block *old = quarantine.head;

		list_unlink(&quarantine, old);
		pthread_mutex_unlock(&alloc_lock);
		check_quarantined(old);
		mem_access(old->data, old->size + REDZONE);
		free(old);
		pthread_mutex_lock(&alloc_lock);
	}
	pthread_mutex_unlock(&alloc_lock);
}

char *__shim_kasprintf(gfp_t gfp, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = __shim_kmalloc(n + 1, gfp, file, line);
	if (!s)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(s, n + 1, fmt, ap);
	va_end(ap);
	return s;
}

void shim_fail_next_allocs(unsigned int n)
{
	WRITE_ONCE(fail_next, n);
}

void shim_fail_nth(unsigned int n)
{
	WRITE_ONCE(fail_nth, n);
}

unsigned int shim_fail_nth_left(void)
{
	return READ_ONCE(fail_nth);
}

size_t shim_live_allocs(void)
{
	struct block *b;
	size_t n = 0;

	pthread_mutex_lock(&alloc_lock);
	for (b = live.head; b; b = b->next)
		n += b->gen == generation;
	pthread_mutex_unlock(&alloc_lock);
	return n;
}

void shim_expect_leaks(unsigned int n)
{
	expected_leaks = n;
}

bool shim_is_freed(const void *p)
{
	const unsigned char *c = p;
	struct block *b;
	bool freed = false;

	if (shim_guard_is_freed(p))
		return true;
	pthread_mutex_lock(&alloc_lock);
	for (b = quarantine.head; b && !freed; b = b->next)
		freed = c >= b->data && c < b->data + b->size;
	pthread_mutex_unlock(&alloc_lock);
	return freed;
}

void shim_alloc_begin(void)
{
	pthread_mutex_lock(&alloc_lock);
	generation++;
	pthread_mutex_unlock(&alloc_lock);
	fail_next = 0;
	fail_nth = 0;
	expected_leaks = 0;
}

/* End of test: quarantine intact, and leaks exactly as declared. */
int shim_alloc_check_and_reset(void)
{
	struct block *b;
	unsigned int leaks = 0;
	int problems = 0;

	pthread_mutex_lock(&alloc_lock);
	for (b = quarantine.head; b; b = b->next)
		problems += check_quarantined(b);
	for (b = live.head; b; b = b->next) {
		if (b->gen != generation)
			continue;
		leaks++;
		fprintf(stderr, "shim: unreferenced object %p (size %zu) allocated at %s:%d\n",
			(void *)b->data, b->size, b->file, b->line);
	}
	pthread_mutex_unlock(&alloc_lock);
	if (leaks != expected_leaks) {
		fprintf(stderr, "shim: %u leaked allocation(s), %u expected\n",
			leaks, expected_leaks);
		problems++;
	}
	fail_next = 0;
	fail_nth = 0;
	expected_leaks = 0;
	shim_guard_report_stats();
	return problems;
}
