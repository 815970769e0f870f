/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <klist-port/klist.h> - klist for userspace programs: lists whose nodes
 * carry a reference count, so that a list can be walked while nodes are
 * added to and removed from it.  The usage guide is library.md, in the
 * package's documentation (docs/library.md in the source).
 *
 * What this header defines: the klist_* functions, struct klist,
 * struct klist_node and struct klist_iter, the KLIST_* macros and, for
 * the structs' insides, names that begin with klist_port_.  Nothing
 * else: no kernel macro, no list_head.  The structs have the library's
 * own layout (it checks so when it is built) so that a program can
 * embed them; their members are the library's, never touch them.
 *
 * Code ported from the kernel may instead include <linux/klist.h> from
 * the flavour's compatibility directory (library.md, "Kernel code").
 *
 * C and C++ (extern "C"); ISO C99 and later, C++98 and later.
 */
#ifndef KLIST_PORT_KLIST_H
#define KLIST_PORT_KLIST_H

/* The flavour: KLIST_PORT_LOCK_SIZE, and KLIST_PORT_FAST in the fast one. */
#include <klist-port/klist-config.h>

#ifdef __cplusplus
extern "C" {
#endif

struct klist_node;

/* The library's list links, spinlock and reference count, by layout. */
struct klist_port_links {
	struct klist_port_links *klist_port_next, *klist_port_prev;
};

struct klist_port_lock {
	union {
		unsigned char klist_port_bytes[KLIST_PORT_LOCK_SIZE];
		void *klist_port_align_ptr;
		long klist_port_align_long;
	} klist_port_u;
};

struct klist_port_ref {
	int klist_port_count;
};

struct klist {
	struct klist_port_lock	k_lock;
	struct klist_port_links	k_list;
	void			(*get)(struct klist_node *);
	void			(*put)(struct klist_node *);
};

struct klist_node {
	void			*n_klist;
	struct klist_port_links	n_node;
	struct klist_port_ref	n_ref;
};

struct klist_iter {
	struct klist		*i_klist;
	struct klist_node	*i_cur;
};

/*
 * A node's state before its first add: a node must be added from this
 * state, or after it left its list (klist_remove() returned, or
 * klist_node_attached() says 0).  Static and zeroed nodes are in it
 * already; memory from malloc() is not: initialise it first, with
 *	struct klist_node n = KLIST_NODE_INIT;
 * or klist_node_init(&obj->node).  An add of a node that still looks
 * linked warns and does nothing: the node is left as it was, so
 * klist_node_attached() still answers from what it holds (1 for a node
 * whose first word is not 0, such as one with malloc()'s garbage).
 */
#define KLIST_NODE_INIT	{ 0, { 0, 0 }, { 0 } }

static inline void klist_node_init(struct klist_node *n)
{
	n->n_klist = 0;
	n->n_node.klist_port_next = 0;
	n->n_node.klist_port_prev = 0;
	n->n_ref.klist_port_count = 0;
}

#ifdef KLIST_PORT_FAST
/*
 * A list defined statically, unlocked and empty (the fast flavour: the
 * checked flavour's lock needs klist_init()).  C only.
 */
#define KLIST_INIT(name, get_fn, put_fn)				\
	{ { { { 0 } } }, { &(name).k_list, &(name).k_list }, get_fn, put_fn }
#define DEFINE_KLIST(name, get_fn, put_fn)				\
	struct klist name = KLIST_INIT(name, get_fn, put_fn)

/*
 * Misuses reported so far (a NULL argument, an add of a linked node, a
 * delete of a node on no list, ...), printed or not: each report site
 * prints once, this counts every one.
 */
unsigned long klist_port_warnings(void);
#endif

void klist_init(struct klist *k, void (*get)(struct klist_node *),
		void (*put)(struct klist_node *));

/*
 * The end of a list's life, before its memory is freed or reused (a
 * klist-port addition: the kernel's klist has none).  Returns 0 once the
 * list is empty: from then on an add or a walk of it is reported until
 * klist_init() again.  With nodes still on it, or deleted ones that walks
 * still hold, it reports that, leaves the list as it was and returns
 * -EBUSY (16): the list must not be freed yet.  An add or a walk of a
 * list never initialised is reported too, not written through.
 */
int klist_fini(struct klist *k);

void klist_add_tail(struct klist_node *n, struct klist *k);
void klist_add_head(struct klist_node *n, struct klist *k);
void klist_add_behind(struct klist_node *n, struct klist_node *pos);
void klist_add_before(struct klist_node *n, struct klist_node *pos);

/*
 * klist_remove() sleeps until no walk holds the node.  A node that has
 * left its list already returns at once; one never added is reported.
 */
void klist_del(struct klist_node *n);
void klist_remove(struct klist_node *n);

int klist_node_attached(struct klist_node *n);

void klist_iter_init(struct klist *k, struct klist_iter *i);
void klist_iter_init_node(struct klist *k, struct klist_iter *i,
			  struct klist_node *n);
/* After klist_iter_exit(), a step is reported and returns NULL. */
void klist_iter_exit(struct klist_iter *i);
struct klist_node *klist_prev(struct klist_iter *i);
struct klist_node *klist_next(struct klist_iter *i);

#ifdef __cplusplus
}
#endif

#endif
