/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scenarios the explorer runs: each an X() line here, defined in
 * klist-scenarios.c, ddm-scenarios.c or self-scenarios.c.  The KUnit
 * suites (explore-test.c) make one case of each, tests/explore/
 * CMakeLists.txt one ctest case of each (it reads the X() lines), and
 * explore-main.c runs them by name (scripts/time-to-detect.sh -T explore).
 */
#ifndef _EXPLORE_SCENARIOS_H
#define _EXPLORE_SCENARIOS_H

#include <shim/explore.h>

#define EXPLORE_SELF_SCENARIOS(X)		\
	X(self_locked_counter)			\
	X(self_lost_update)			\
	X(self_store_order)			\
	X(self_never_completed)			\
	X(self_msleep_simulated)		\
	X(self_lockdep_order)

/* point-scenarios.c: each shim family's point comes before its effect. */
#define EXPLORE_POINT_SCENARIOS(X)		\
	X(point_write_once)			\
	X(point_store_release)			\
	X(point_atomic)				\
	X(point_refcount)			\
	X(point_read_once)			\
	X(point_load_acquire)			\
	X(point_barrier)			\
	X(point_spin_lock)			\
	X(point_mutex_lock)			\
	X(point_trylock)			\
	X(point_unlock)				\
	X(point_set_state)			\
	X(point_wake)				\
	X(point_complete)			\
	X(point_wait)				\
	X(point_semaphore)			\
	X(point_kthread)

/*
 * dep-scenarios.c: reads that once had no point of their own (or a label
 * naming the wrong bytes); each fails on purpose, and DPOR must find it.
 */
#define EXPLORE_DEP_SCENARIOS(X)		\
	X(dep_spin_is_locked)			\
	X(dep_mutex_is_locked)			\
	X(dep_completion_done)			\
	X(dep_kthread_head)			\
	X(dep_overlap)				\
	X(dep_kfree)				\
	X(dep_kthread_create)			\
	X(dep_irq_window)			\
	X(dep_timed_wait)			\
	X(dep_timed_tie)

/* The outcomes of a point scenario, and the one its check rejects. */
enum { POINT_NONE, POINT_SPLIT, POINT_WHOLE };
extern int point_forbidden;

/* zoo-scenarios.c: each pattern NAME, and its fixed twin NAME_fixed. */
#define EXPLORE_ZOO_SCENARIOS(X)		\
	X(zoo_lost_wakeup)			\
	X(zoo_atomicity)			\
	X(zoo_order)				\
	X(zoo_get_on_zero)			\
	X(zoo_aba)				\
	X(zoo_abba)				\
	X(zoo_abc)				\
	X(zoo_sleep_in_atomic)			\
	X(zoo_never_completed)			\
	X(zoo_use_after_free)			\
	X(zoo_double_checked)			\
	X(zoo_data_race)

/* ... and those that show only under the weak-memory model. */
#define EXPLORE_ZOO_WMM_SCENARIOS(X)		\
	X(zoo_lost_wakeup_sb)

#define EXPLORE_KLIST_SCENARIOS(X)		\
	X(klist_walk_fwd_vs_remove)		\
	X(klist_walk_back_vs_remove)		\
	X(klist_walk_stop_vs_del)		\
	X(klist_walk_from_node_vs_del)		\
	X(klist_walk_from_node_vs_its_del)	\
	X(klist_walk_from_dead_node)		\
	X(klist_two_removers_vs_walk)		\
	X(klist_add_tail_vs_remove_last)	\
	X(klist_add_before_behind_vs_remove)	\
	X(klist_readd_after_remove)		\
	X(klist_walk_in_irq_vs_add_del)		\
	X(klist_hooks_walk_vs_del)		\
	X(klist_walks_vs_del)			\
	X(klist_remove_vs_last_put)

#define EXPLORE_DDM_SCENARIOS(X)		\
	X(ddm_drv_unreg_vs_dev_unreg)		\
	X(ddm_drv_reg_vs_dev_add)		\
	X(ddm_sleeping_probe_vs_drv_unreg)	\
	X(ddm_failing_probe_vs_dev_add)		\
	X(ddm_bind_unbind_vs_suspend)		\
	X(ddm_preset_driver_vs_drv_unreg)	\
	X(ddm_null_bus_walk)			\
	X(ddm_listener_unsubscribe_queued)	\
	X(ddm_class_devno_create_destroy)	\
	X(ddm_drv_reg_vs_dev_add_events)	\
	X(ddm_dev_reg_vs_dev_reg)		\
	X(ddm_drv_unreg_vs_drv_unreg)

/*
 * Every hand-written scenario, for the programs that take one by name
 * (explore, explore-graph-native): the first macro for each name, the
 * second for each zoo pattern's fixed twin (name##_fixed).  (No "X("
 * in this comment: tests/explore/CMakeLists.txt reads the lists.)
 */
#define EXPLORE_ALL_SCENARIOS(X, X_FIXED)	\
	EXPLORE_SELF_SCENARIOS(X)		\
	EXPLORE_POINT_SCENARIOS(X)		\
	EXPLORE_DEP_SCENARIOS(X)		\
	EXPLORE_ZOO_SCENARIOS(X)		\
	EXPLORE_ZOO_SCENARIOS(X_FIXED)		\
	EXPLORE_ZOO_WMM_SCENARIOS(X)		\
	EXPLORE_ZOO_WMM_SCENARIOS(X_FIXED)	\
	EXPLORE_KLIST_SCENARIOS(X)		\
	EXPLORE_DDM_SCENARIOS(X)

#define EXPLORE_DECLARE(name)	extern const struct shim_scenario name;
EXPLORE_SELF_SCENARIOS(EXPLORE_DECLARE)
EXPLORE_POINT_SCENARIOS(EXPLORE_DECLARE)
EXPLORE_DEP_SCENARIOS(EXPLORE_DECLARE)
#define EXPLORE_DECLARE_TWINS(name) \
	extern const struct shim_scenario name, name##_fixed;
EXPLORE_ZOO_SCENARIOS(EXPLORE_DECLARE_TWINS)
EXPLORE_ZOO_WMM_SCENARIOS(EXPLORE_DECLARE_TWINS)
EXPLORE_KLIST_SCENARIOS(EXPLORE_DECLARE)
EXPLORE_DDM_SCENARIOS(EXPLORE_DECLARE)

#endif
