// SPDX-License-Identifier: GPL-2.0
/*
 * The guarded allocator, after the kernel's KFENCE (mm/kfence/).  In the
 * plain build each kmalloc block gets a page of its own, placed at the
 * end of the page so that the byte after it lies on a PROT_NONE guard
 * page, and kfree() makes the page PROT_NONE as well.  The first read or
 * write of freed or out-of-bounds memory then faults; the SIGSEGV
 * handler reports it through shim_report() with the faulting address,
 * the block's size, allocation and free sites and a backtrace, makes the
 * page accessible again and returns, so the access proceeds (reading the
 * free poison) and each block is reported once, as KFENCE does.  A fault
 * anywhere else is a real crash: the previous action is restored and the
 * access faults again.
 *
 * Layout.  One pool mapped PROT_NONE: [guard][slot 0][guard][slot 1]...
 * [guard], a page per slot, so every slot has a guard page on both sides.
 * Blocks larger than a page get a mapping of their own with the same
 * shape: [guard][pages][guard].  A block ends at its last page's end,
 * rounded to KMALLOC_MINALIGN; the bytes before it on its first page and
 * the few after it are filled with a canary checked at kfree(), so an
 * underflow or a small overflow write is still found there.  Reads just
 * before a block are only seen once they reach the guard page below (the
 * kernel's KFENCE alternates sides to catch half of them at once; here
 * an overflow, the commoner bug, is always caught at once).
 *
 * Quarantine.  A freed pool slot stays PROT_NONE until every other slot
 * is in use: slots are reused oldest-freed first, so the quarantine is
 * the whole pool less the live blocks.  Freed large blocks are unmapped
 * oldest first once more than LARGE_QUARANTINE bytes are held.
 *
 * Mappings.  mprotect() splits the pool: a live slot costs two mappings
 * (its page and the guard after it), a freed slot none, since it merges
 * with the guard pages around it again (the pool is MAP_NORESERVE so a
 * page made writable once carries no accounting flag that would keep it
 * apart).  POOL_SLOTS live blocks thus stay well under vm.max_map_count.
 * When every slot is live, or mprotect() fails, blocks fall back to the
 * unguarded allocator in alloc.c, and we say so once.
 *
 * Not under ASan, TSan or valgrind: they see such accesses themselves
 * and would fight over the pages and the signal.  SHIM_GUARD=0 turns it
 * off, SHIM_GUARD=sample guards one block in SHIM_GUARD_SAMPLE (64).
 */
#define _GNU_SOURCE
/* Bookkeeping here is no scheduling point (<shim/ctl-hook.h>). */
#define SHIM_INTERNAL

#include <dlfcn.h>
#include <elf.h>
#include <execinfo.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>
#include <sys/mman.h>

#include <linux/kernel.h>
#include <linux/slab.h>
#include "shim-internal.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define GUARD_UNAVAILABLE	"ASan or TSan build"
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
	__has_feature(memory_sanitizer)
#define GUARD_UNAVAILABLE	"sanitizer build"
#endif
#endif

#if !defined(GUARD_UNAVAILABLE) && defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define on_valgrind()	RUNNING_ON_VALGRIND
#endif
#endif
#ifndef on_valgrind
#define on_valgrind()	0
#endif

#define POOL_SLOTS		16384	/* SHIM_GUARD_SLOTS overrides */
#define SAMPLE_EVERY		64	/* SHIM_GUARD_SAMPLE overrides */
#define LARGE_QUARANTINE	(16u << 20)
#define KMALLOC_MINALIGN	8	/* ARCH_KMALLOC_MINALIGN on x86_64 */
#define CANARY			0xaa
#define POISON_FREE		0x6b	/* as alloc.c and the slab poison */
#define ALTSTACK_SIZE		(64u << 10)
#define MAX_FRAMES		32
#define ROUND_UP(x, a)		(((x) + (a) - 1) / (a) * (a))

enum gstate { G_UNUSED, G_LIVE, G_FREED };

/* One guarded block: a pool slot or a large block's own mapping. */
struct gblock {
	unsigned char *map;	/* its first page */
	size_t map_len;		/* its pages, without the guards */
	unsigned char *addr;	/* the object, ending at map + map_len */
	size_t size;
	enum gstate state;
	bool opened;		/* made accessible after a report */
	bool guard_opened[2];	/* large blocks: guard pages below, above */
	const char *file, *free_file;
	int line, free_line;
	void *owner;		/* alloc.c's header while live */
	struct gblock *next;	/* freed pool slots, or all large blocks */
};

static pthread_once_t guard_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t guard_lock = PTHREAD_MUTEX_INITIALIZER;
static enum shim_guard_mode mode = SHIM_GUARD_OFF;
static bool available;
static unsigned int sample_every = SAMPLE_EVERY;
static unsigned long sample_count;
static size_t page_size;

/* The pool; fixed once set up, so a range check needs no lock. */
static unsigned char *pool;
static size_t pool_len;
static unsigned int nslots, next_unused;
static struct gblock *slots;
static bool *pool_guard_open;	/* nslots + 1 guard pages */
static struct gblock *freed_head, *freed_tail;	/* FIFO of freed slots */

static struct gblock *large;	/* live and freed large blocks */
static unsigned int nlarge;
static size_t large_freed_bytes;

static struct {
	unsigned long guarded, unguarded, reused, faults;
	unsigned int live, peak_live;
	int peak_maps;
	bool wanted;		/* SHIM_GUARD_STATS: count mappings at peaks */
} stats;
static bool said_exhausted, said_mprotect;
static struct sigaction old_segv;
static pthread_key_t altstack_key;

/* --- printing from the fault handler ------------------------------------ */

static __printf(1, 2) void gprint(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	if (n > 0 && write(STDERR_FILENO, buf, n) < 0)
		return;
}

/*
 * Symbols: backtrace_symbols_fd() only knows exported symbols, and
 * klist's helpers are static, so read each object's own symbol table
 * (open, lseek and mmap are async-signal-safe).
 */
struct symfile {
	uintptr_t bias;
	const char *path;
	const ElfW(Sym) *syms;
	size_t nsyms;
	const char *strs;
	size_t strs_len;
};

#define MAX_SYMFILES	16
static pthread_mutex_t sym_lock = PTHREAD_MUTEX_INITIALIZER;
static struct symfile symfiles[MAX_SYMFILES];
static int nsymfiles;

static void symfile_load(struct symfile *sf, const char *path)
{
	const ElfW(Shdr) *sh, *tab = NULL;
	const ElfW(Ehdr) *eh;
	size_t len;
	void *map;
	off_t end;
	int fd, i;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	/* Not fstat(): <sys/stat.h> would pull the system's <linux/stat.h>. */
	end = lseek(fd, 0, SEEK_END);
	if (end < (off_t)sizeof(*eh)) {
		close(fd);
		return;
	}
	len = end;
	map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return;
	eh = map;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || !eh->e_shoff ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(*sh) > len)
		return;
	sh = (const void *)((const char *)map + eh->e_shoff);
	/* The full table if the file has one, else the dynamic one. */
	for (i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type == SHT_SYMTAB)
			tab = &sh[i];
		else if (sh[i].sh_type == SHT_DYNSYM && !tab)
			tab = &sh[i];
	}
	if (!tab || tab->sh_link >= eh->e_shnum ||
	    tab->sh_offset + tab->sh_size > len ||
	    sh[tab->sh_link].sh_offset + sh[tab->sh_link].sh_size > len)
		return;
	sf->syms = (const void *)((const char *)map + tab->sh_offset);
	sf->nsyms = tab->sh_size / sizeof(ElfW(Sym));
	sf->strs = (const char *)map + sh[tab->sh_link].sh_offset;
	sf->strs_len = sh[tab->sh_link].sh_size;
}

/* "func+0x1c/0x80", or "object+0x1234" where no symbol covers @pc. */
static void symbolize(uintptr_t pc, char *buf, size_t len, bool *named)
{
	struct link_map *lm = NULL;
	struct symfile *sf = NULL;
	const char *base;
	Dl_info info;
	size_t i;
	int k;

	*named = false;
	if (!dladdr1((void *)pc, &info, (void **)&lm, RTLD_DL_LINKMAP) || !lm) {
		snprintf(buf, len, "0x%lx", (unsigned long)pc);
		return;
	}
	pthread_mutex_lock(&sym_lock);
	for (k = 0; k < nsymfiles; k++)
		if (symfiles[k].bias == lm->l_addr)
			sf = &symfiles[k];
	if (!sf && nsymfiles < MAX_SYMFILES) {
		sf = &symfiles[nsymfiles++];
		sf->bias = lm->l_addr;
		/* The main program's l_name is empty. */
		sf->path = lm->l_name && lm->l_name[0] ? lm->l_name : "/proc/self/exe";
		symfile_load(sf, sf->path);
	}
	pthread_mutex_unlock(&sym_lock);
	for (i = 0; sf && i < sf->nsyms; i++) {
		const ElfW(Sym) *s = &sf->syms[i];
		uintptr_t start = sf->bias + s->st_value;

		if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || !s->st_size ||
		    s->st_name >= sf->strs_len)
			continue;
		if (pc >= start && pc < start + s->st_size) {
			snprintf(buf, len, "%s+0x%lx/0x%lx", sf->strs + s->st_name,
				 (unsigned long)(pc - start), (unsigned long)s->st_size);
			*named = true;
			return;
		}
	}
	base = info.dli_fname ? strrchr(info.dli_fname, '/') : NULL;
	base = base ? base + 1 : info.dli_fname && info.dli_fname[0] ? info.dli_fname : "?";
	snprintf(buf, len, "%s+0x%lx", base, (unsigned long)(pc - (uintptr_t)info.dli_fbase));
}

/* The faulting thread's stack, from the faulting instruction up. */
struct stack {
	int n;
	char sym[MAX_FRAMES][128];
	char func[128];		/* the first frame with a name (memset has none) */
};

static void collect_stack(uintptr_t pc, struct stack *st)
{
	void *frames[MAX_FRAMES];
	int n, i, first = 0;
	bool named, have_func = false;

	n = backtrace(frames, MAX_FRAMES);
	for (i = 0; i < n; i++) {
		if ((uintptr_t)frames[i] == pc) {
			first = i;
			break;
		}
	}
	if (i == n) {
		/* Unwinding through the signal frame failed: the pc at least. */
		frames[0] = (void *)pc;
		n = 1;
	}
	snprintf(st->func, sizeof(st->func), "0x%lx", (unsigned long)pc);
	for (st->n = 0, i = first; i < n; i++, st->n++) {
		/* A return address: look up the call, not what follows it. */
		uintptr_t at = (uintptr_t)frames[i] - (i > first);

		symbolize(at, st->sym[st->n], sizeof(st->sym[0]), &named);
		/*
		 * The explorer's wmm model reads a marked access's memory
		 * on the caller's behalf: the fault is the caller's.
		 */
		if (named && !strncmp(st->sym[st->n], "shim_ctl_", 9))
			have_func = false;
		else if (named && !have_func) {
			snprintf(st->func, sizeof(st->func), "%s", st->sym[st->n]);
			have_func = true;
		}
	}
}

static void print_stack(const struct stack *st)
{
	int i;

	for (i = 0; i < st->n; i++)
		gprint(" %s\n", st->sym[i]);
}

/* --- the pool ------------------------------------------------------------ */

static unsigned char *slot_page(unsigned int i)
{
	return pool + (2 * (size_t)i + 1) * page_size;
}

static unsigned char *pool_guard(unsigned int i)	/* the guard below slot i */
{
	return pool + 2 * (size_t)i * page_size;
}

static bool in_pool(const void *p)
{
	const unsigned char *c = p;

	return pool && c >= pool && c < pool + pool_len;
}

static unsigned long env_ulong(const char *name, unsigned long dflt)
{
	const char *s = getenv(name);
	char *end;
	unsigned long v;

	if (!s || !*s)
		return dflt;
	v = strtoul(s, &end, 0);
	return *end || !v ? dflt : v;
}

static void altstack_free(void *stack)
{
	stack_t ss = { .ss_flags = SS_DISABLE };

	sigaltstack(&ss, NULL);
	munmap((unsigned char *)stack - page_size, ALTSTACK_SIZE + page_size);
}

/* This thread's alternate signal stack, so the handler runs on overflow. */
static void altstack_setup(void)
{
	static __thread bool done;
	unsigned char *m;
	stack_t ss;

	if (done || !available)
		return;
	done = true;
	/* A guard page below: a handler overrunning its stack faults too. */
	m = mmap(NULL, ALTSTACK_SIZE + page_size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED)
		return;
	mprotect(m, page_size, PROT_NONE);
	ss.ss_sp = m + page_size;
	ss.ss_size = ALTSTACK_SIZE;
	ss.ss_flags = 0;
	if (sigaltstack(&ss, NULL)) {
		munmap(m, ALTSTACK_SIZE + page_size);
		return;
	}
	pthread_setspecific(altstack_key, ss.ss_sp);
}

static void guard_segv(int sig, siginfo_t *si, void *uctx);

static void guard_atfork_prepare(void)
{
	pthread_mutex_lock(&guard_lock);
}

static void guard_atfork_release(void)
{
	pthread_mutex_unlock(&guard_lock);
}

static void guard_init(void)
{
	const char *env = getenv("SHIM_GUARD");
	struct sigaction sa;
	unsigned int i;
	void *frame;

	page_size = sysconf(_SC_PAGESIZE);
#ifdef GUARD_UNAVAILABLE
	return;
#endif
	if (on_valgrind())
		return;
	available = true;
	mode = SHIM_GUARD_ALL;
	if (env && (!strcmp(env, "0") || !strcmp(env, "off")))
		mode = SHIM_GUARD_OFF;
	else if (env && !strncmp(env, "sample", 6))
		mode = SHIM_GUARD_SAMPLE;
	sample_every = env_ulong("SHIM_GUARD_SAMPLE", SAMPLE_EVERY);
	stats.wanted = getenv("SHIM_GUARD_STATS");
	nslots = env_ulong("SHIM_GUARD_SLOTS", POOL_SLOTS);

	pool_len = (2 * (size_t)nslots + 1) * page_size;
	pool = mmap(NULL, pool_len, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	slots = calloc(nslots, sizeof(*slots));
	pool_guard_open = calloc(nslots + 1, sizeof(*pool_guard_open));
	if (pool == MAP_FAILED || !slots || !pool_guard_open) {
		fprintf(stderr, "shim: guarded allocator: no room for %u slots; blocks are not guarded\n",
			nslots);
		if (pool != MAP_FAILED)
			munmap(pool, pool_len);
		pool = NULL;
		available = false;
		mode = SHIM_GUARD_OFF;
		return;
	}
	for (i = 0; i < nslots; i++) {
		slots[i].map = slot_page(i);
		slots[i].map_len = page_size;
	}
	/* Load the unwinder now: its first use mallocs, a handler may not. */
	backtrace(&frame, 1);
	pthread_key_create(&altstack_key, altstack_free);
	pthread_atfork(guard_atfork_prepare, guard_atfork_release,
		       guard_atfork_release);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = guard_segv;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &old_segv);
	altstack_setup();
}

static void guard_setup(void)
{
	pthread_once(&guard_once, guard_init);
}

enum shim_guard_mode shim_guard_set_mode(enum shim_guard_mode m)
{
	guard_setup();
	if (available)
		WRITE_ONCE(mode, m);
	return READ_ONCE(mode);
}

enum shim_guard_mode shim_guard_mode(void)
{
	guard_setup();
	return READ_ONCE(mode);
}

void shim_guard_thread_start(void)
{
	guard_setup();
	altstack_setup();
}

/* Should a block of @size be guarded?  Counts the samples. */
bool shim_guard_wanted(size_t size)
{
	guard_setup();
	altstack_setup();
	switch (READ_ONCE(mode)) {
	case SHIM_GUARD_ALL:
		return size;
	case SHIM_GUARD_SAMPLE:
		return size && !(__atomic_fetch_add(&sample_count, 1, __ATOMIC_RELAXED) %
				 sample_every);
	default:
		return false;
	}
}

static int protect(void *p, size_t len, int prot)
{
	if (!mprotect(p, len, prot))
		return 0;
	if (!said_mprotect) {
		said_mprotect = true;
		fprintf(stderr, "shim: guarded allocator: mprotect failed (%m); some blocks are not guarded\n");
	}
	return -1;
}

/* Close the pool guard pages next to slot @i that a report opened. */
static void close_pool_guards(unsigned int i)
{
	unsigned int g;

	for (g = i; g <= i + 1; g++) {
		if (pool_guard_open[g] && !protect(pool_guard(g), page_size, PROT_NONE))
			pool_guard_open[g] = false;
	}
}

/* A slot for a new block: never used yet, else the oldest freed one. */
static struct gblock *take_slot(void)
{
	struct gblock *g;

	if (next_unused < nslots)
		return &slots[next_unused++];
	g = freed_head;
	if (!g)
		return NULL;
	freed_head = g->next;
	if (!freed_head)
		freed_tail = NULL;
	stats.reused++;
	return g;
}

static void put_freed_slot(struct gblock *g)
{
	g->next = NULL;
	if (freed_tail)
		freed_tail->next = g;
	else
		freed_head = g;
	freed_tail = g;
}

/* Mappings of this process, for SHIM_GUARD_STATS. */
static int count_mappings(void)
{
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC), n = 0;
	char buf[4096];
	ssize_t r, i;

	if (fd < 0)
		return -1;
	while ((r = read(fd, buf, sizeof(buf))) > 0)
		for (i = 0; i < r; i++)
			n += buf[i] == '\n';
	close(fd);
	return n;
}

static void place(struct gblock *g, size_t size, const char *file, int line,
		  void *owner)
{
	size_t end = ROUND_UP(size, KMALLOC_MINALIGN);

	g->addr = g->map + g->map_len - end;
	g->size = size;
	g->state = G_LIVE;
	g->opened = false;
	g->file = file;
	g->line = line;
	g->free_file = NULL;
	g->free_line = 0;
	g->owner = owner;
	memset(g->map, CANARY, g->addr - g->map);
	memset(g->addr + size, CANARY, end - size);
	if (++stats.live > stats.peak_live) {
		stats.peak_live = stats.live;
		if (stats.wanted && !(stats.peak_live % 256)) {
			int n = count_mappings();

			stats.peak_maps = max(stats.peak_maps, n);
		}
	}
	stats.guarded++;
}

static void *large_alloc(size_t size, const char *file, int line, void *owner)
{
	size_t len = ROUND_UP(size, page_size);
	struct gblock *g = calloc(1, sizeof(*g));
	unsigned char *m;

	if (!g)
		return NULL;
	m = mmap(NULL, len + 2 * page_size, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED || protect(m + page_size, len, PROT_READ | PROT_WRITE)) {
		if (m != MAP_FAILED)
			munmap(m, len + 2 * page_size);
		free(g);
		return NULL;
	}
	g->map = m + page_size;
	g->map_len = len;
	pthread_mutex_lock(&guard_lock);
	place(g, size, file, line, owner);
	g->next = large;
	large = g;
	WRITE_ONCE(nlarge, nlarge + 1);
	pthread_mutex_unlock(&guard_lock);
	return g->addr;
}

/* Unmap freed large blocks, oldest first, down to the bound.  Locked. */
static void large_trim(void)
{
	struct gblock **pp, *g, **oldest;

	while (large_freed_bytes > LARGE_QUARANTINE) {
		oldest = NULL;
		/* Pushed at the head: the last freed one in the list is the oldest. */
		for (pp = &large; (g = *pp); pp = &g->next)
			if (g->state == G_FREED)
				oldest = pp;
		if (!oldest)
			return;
		g = *oldest;
		*oldest = g->next;
		WRITE_ONCE(nlarge, nlarge - 1);
		large_freed_bytes -= g->map_len;
		munmap(g->map - page_size, g->map_len + 2 * page_size);
		free(g);
	}
}

void *shim_guard_alloc(size_t size, const char *file, int line, void *owner)
{
	struct gblock *g;

	if (size > page_size)
		return large_alloc(size, file, line, owner);
	pthread_mutex_lock(&guard_lock);
	g = take_slot();
	if (!g) {
		bool say = !said_exhausted;

		said_exhausted = true;
		stats.unguarded++;
		pthread_mutex_unlock(&guard_lock);
		if (say)
			fprintf(stderr, "shim: guarded allocator: all %u slots are live; more blocks are not guarded\n",
				nslots);
		return NULL;
	}
	close_pool_guards(g - slots);
	if (protect(g->map, page_size, PROT_READ | PROT_WRITE)) {
		/* Give it back; it stays PROT_NONE and unused. */
		g->state = G_FREED;
		put_freed_slot(g);
		stats.unguarded++;
		pthread_mutex_unlock(&guard_lock);
		return NULL;
	}
	place(g, size, file, line, owner);
	pthread_mutex_unlock(&guard_lock);
	return g->addr;
}

/* The block whose pages (or pool guard pages) hold @p.  Locked. */
static struct gblock *find_block(const void *p, int *guard)
{
	const unsigned char *c = p;
	struct gblock *g;

	*guard = -1;
	if (in_pool(p)) {
		size_t page = (c - pool) / page_size;

		if (page & 1)
			return &slots[page / 2];
		*guard = page / 2;	/* a pool guard page: no block */
		return NULL;
	}
	for (g = large; g; g = g->next)
		if (c >= g->map - page_size && c < g->map + g->map_len + page_size)
			return g;
	return NULL;
}

/* First canary byte overwritten around @g, as an offset from the block. */
static bool canary_broken(struct gblock *g, long *off)
{
	const unsigned char *c;
	const unsigned char *end = g->map + g->map_len;

	for (c = g->map; c < g->addr; c++) {
		if (*c != CANARY) {
			*off = c - g->addr;
			return true;
		}
	}
	for (c = g->addr + g->size; c < end; c++) {
		if (*c != CANARY) {
			*off = c - g->addr;
			return true;
		}
	}
	return false;
}

int shim_guard_free(const void *p, const char *file, int line, void **owner)
{
	struct gblock *g, copy;
	int guard;
	long off;
	bool broken;

	if (!in_pool(p) && !READ_ONCE(nlarge))
		return SHIM_GUARD_NOT_OURS;
	pthread_mutex_lock(&guard_lock);
	g = find_block(p, &guard);
	if (!g && guard < 0) {
		pthread_mutex_unlock(&guard_lock);
		return SHIM_GUARD_NOT_OURS;
	}
	if (!g || g->state != G_LIVE || p != g->addr) {
		bool twice = g && g->state == G_FREED && p == g->addr;

		if (g)
			copy = *g;
		pthread_mutex_unlock(&guard_lock);
		if (twice)
			shim_report(file, line,
				    "BUG: double free at %s:%d of a block allocated at %s:%d, first freed at %s:%d",
				    file, line, copy.file, copy.line, copy.free_file,
				    copy.free_line);
		else
			shim_report(file, line, "BUG: kfree of %p at %s:%d: not a kmalloc block",
				    p, file, line);
		return SHIM_GUARD_REPORTED;
	}
	broken = canary_broken(g, &off);
	/* Poisoned as alloc.c does: what a reported access then reads. */
	memset(g->addr, POISON_FREE, g->size);
	if (protect(g->map, g->map_len, PROT_NONE))
		g->opened = true;	/* left accessible: nothing to report */
	g->state = G_FREED;
	g->free_file = file;
	g->free_line = line;
	*owner = g->owner;
	g->owner = NULL;
	stats.live--;
	if (in_pool(p)) {
		close_pool_guards(g - slots);
		put_freed_slot(g);
	} else {
		if (g->guard_opened[0] && !protect(g->map - page_size, page_size, PROT_NONE))
			g->guard_opened[0] = false;
		if (g->guard_opened[1] && !protect(g->map + g->map_len, page_size, PROT_NONE))
			g->guard_opened[1] = false;
		large_freed_bytes += g->map_len;
		large_trim();
	}
	copy = *g;
	pthread_mutex_unlock(&guard_lock);
	if (broken)
		shim_report(file, line,
			    "BUG: out-of-bounds write %s a %zu-byte block allocated at %s:%d (found at kfree, %s:%d)",
			    off < 0 ? "before" : "past", copy.size, copy.file, copy.line,
			    file, line);
	return SHIM_GUARD_FREED;
}

static struct gblock *find_freed(const void *p)
{
	const unsigned char *c = p;
	struct gblock *g;
	int guard;

	g = find_block(p, &guard);
	if (g && g->state == G_FREED && c >= g->addr && c < g->addr + g->size)
		return g;
	return NULL;
}

bool shim_guard_is_freed(const void *p)
{
	bool freed;

	if (!in_pool(p) && !READ_ONCE(nlarge))
		return false;
	pthread_mutex_lock(&guard_lock);
	freed = find_freed(p);
	pthread_mutex_unlock(&guard_lock);
	return freed;
}

bool shim_is_guarded(const void *p)
{
	const unsigned char *c = p;
	struct gblock *g;
	bool guarded;
	int guard;

	if (!in_pool(p) && !READ_ONCE(nlarge))
		return false;
	pthread_mutex_lock(&guard_lock);
	g = find_block(p, &guard);
	guarded = g && g->state != G_UNUSED && c >= g->addr && c < g->addr + g->size;
	pthread_mutex_unlock(&guard_lock);
	return guarded;
}

/* --- the fault handler --------------------------------------------------- */

struct fault {
	struct gblock blk;	/* a copy: the block may be reused meanwhile */
	bool have_blk;
	bool freed;		/* the block was freed: use-after-free */
	long off;		/* of the address from the block's start */
};

/* Of the blocks on either side of a guard page, the one to blame for @a. */
static struct gblock *nearer(struct gblock *lo, struct gblock *hi,
			     const unsigned char *a)
{
	if (lo && lo->state == G_UNUSED)
		lo = NULL;
	if (hi && hi->state == G_UNUSED)
		hi = NULL;
	/* A live block before a freed one: its overflow is the likelier bug. */
	if (lo && hi && lo->state != hi->state)
		return lo->state == G_LIVE ? lo : hi;
	if (lo && hi)
		return a - (lo->addr + lo->size) < hi->addr - a ? lo : hi;
	return lo ? lo : hi;
}

/*
 * What the fault at @a hit, and open the page so the access can proceed.
 * False if it is not ours to handle, or already handled by another thread.
 */
static bool classify_and_open(unsigned char *a, struct fault *f, bool *retry)
{
	unsigned char *page = (unsigned char *)((uintptr_t)a & ~(page_size - 1));
	struct gblock *g, *lo, *hi;
	int guard;

	*retry = false;
	pthread_mutex_lock(&guard_lock);
	g = find_block(a, &guard);
	if (!g && guard < 0) {
		pthread_mutex_unlock(&guard_lock);
		return false;
	}
	f->have_blk = false;
	f->freed = false;
	if (g && a >= g->map && a < g->map + g->map_len) {
		/* The block's own pages. */
		if (g->state == G_LIVE || g->opened) {
			/* Reused or opened by another thread meanwhile: try again. */
			pthread_mutex_unlock(&guard_lock);
			*retry = true;
			return true;
		}
		f->have_blk = g->state == G_FREED;
		f->freed = f->have_blk;
		if (protect(g->map, g->map_len, PROT_READ | PROT_WRITE)) {
			pthread_mutex_unlock(&guard_lock);
			return false;
		}
		g->opened = true;
	} else {
		/* A guard page: blame the nearer live block beside it. */
		bool *open;

		if (g) {
			lo = hi = g;
			open = &g->guard_opened[a >= g->map];
		} else {
			lo = guard > 0 ? &slots[guard - 1] : NULL;
			hi = guard < (int)nslots ? &slots[guard] : NULL;
			open = &pool_guard_open[guard];
			g = nearer(lo, hi, a);
		}
		if (*open) {
			pthread_mutex_unlock(&guard_lock);
			*retry = true;
			return true;
		}
		if (protect(page, page_size, PROT_READ | PROT_WRITE)) {
			pthread_mutex_unlock(&guard_lock);
			return false;
		}
		*open = true;
		f->have_blk = g && g->state != G_UNUSED;
	}
	if (f->have_blk) {
		f->blk = *g;
		f->off = a - g->addr;
	}
	stats.faults++;
	pthread_mutex_unlock(&guard_lock);
	return true;
}

static void describe(const struct fault *f, char *buf, size_t len)
{
	long past = f->off - (long)f->blk.size;

	if (f->freed)
		snprintf(buf, len, "at offset %ld of a %zu-byte block", f->off, f->blk.size);
	else if (past >= 0)
		snprintf(buf, len, "%ld byte%s past the end", past + 1, past ? "s" : "");
	else
		snprintf(buf, len, "%ld byte%s before the start", -f->off,
			 f->off == -1 ? "" : "s");
}

static void guard_segv(int sig, siginfo_t *si, void *uctx)
{
	ucontext_t *uc = uctx;
	unsigned char *a = si->si_addr;
	const char *access = "access";
	char title[400], where[96], sites[320];
	uintptr_t pc = 0;
	struct stack st;
	struct fault f;
	bool retry;

#if defined(__x86_64__)
	/* The page-fault error code: bit 1 set for a write. */
	access = uc->uc_mcontext.gregs[REG_ERR] & 2 ? "write" : "read";
	pc = uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
	pc = uc->uc_mcontext.pc;
#endif
	if (si->si_code != SEGV_ACCERR || !classify_and_open(a, &f, &retry)) {
		/* Not ours: a real crash.  Let it fault again, undisturbed. */
		gprint("shim: segmentation fault at %p, not in a guarded block; stack:\n", a);
		collect_stack(pc, &st);
		print_stack(&st);
		sigaction(SIGSEGV, &old_segv, NULL);
		return;
	}
	if (retry) {
		/* Bookkeeping gone wrong must not loop forever: crash instead. */
		static __thread void *last;
		static __thread unsigned int retries;

		retries = a == last ? retries + 1 : 0;
		last = a;
		if (retries > 1000) {
			gprint("shim: guarded allocator: fault at %p keeps coming back\n", a);
			sigaction(SIGSEGV, &old_segv, NULL);
		}
		return;
	}

	collect_stack(pc, &st);
	if (!f.have_blk) {
		snprintf(title, sizeof(title), "BUG: KFENCE: invalid %s in %s: %p is in guarded memory but in no block",
			 access, st.func, a);
		gprint("==================================================================\n%s\n\n", title);
		print_stack(&st);
		gprint("==================================================================\n");
		shim_report(__FILE__, __LINE__, "%s", title);
		return;
	}
	describe(&f, where, sizeof(where));
	if (f.freed) {
		snprintf(sites, sizeof(sites), "allocated at %s:%d, freed at %s:%d",
			 f.blk.file, f.blk.line, f.blk.free_file, f.blk.free_line);
		snprintf(title, sizeof(title), "BUG: KFENCE: use-after-free %s in %s",
			 access, st.func);
	} else {
		snprintf(sites, sizeof(sites), "allocated at %s:%d", f.blk.file, f.blk.line);
		snprintf(title, sizeof(title), "BUG: KFENCE: out-of-bounds %s %s a %zu-byte block in %s",
			 access, f.off < 0 ? "before" : "past", f.blk.size, st.func);
	}
	gprint("==================================================================\n%s\n\n", title);
	gprint("%s %s at %p (%s):\n", f.freed ? "Use-after-free" : "Out-of-bounds",
	       access, a, where);
	print_stack(&st);
	gprint("\nblock %p-%p, size=%zu, %s\n", f.blk.addr,
	       f.blk.addr + f.blk.size - 1, f.blk.size, sites);
	gprint("==================================================================\n");
	shim_report(f.freed ? f.blk.free_file : f.blk.file,
		    f.freed ? f.blk.free_line : f.blk.line,
		    "%s: %p is %s, %s", title, a, where, sites);
}

/* --- statistics ---------------------------------------------------------- */

/* With SHIM_GUARD_STATS set: what this process needed, at the test's end. */
void shim_guard_report_stats(void)
{
	if (!stats.wanted)
		return;
	pthread_mutex_lock(&guard_lock);
	fprintf(stderr, "shim: guard: %lu blocks guarded, %lu not (pool full), %lu slots reused, peak %u live of %u slots (%d mappings), %u large, %lu faults, %d mappings now\n",
		stats.guarded, stats.unguarded, stats.reused, stats.peak_live, nslots,
		stats.peak_maps, nlarge, stats.faults, count_mappings());
	pthread_mutex_unlock(&guard_lock);
}
