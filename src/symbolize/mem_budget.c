/*
 * mem_budget.c - the DWARF memory ceiling of a run (mem_budget.h) and its
 * default: half of the smallest of physical memory, the cgroup v2 limit
 * (memory.max of the process's cgroup) and RLIMIT_AS.
 */
#include "mem_budget.h"

#include "jeheap/symbolize.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static _Atomic uint64_t used;
static _Atomic uint64_t ceiling;

/* memory.max of the cgroup in /proc/self/cgroup ("0::/path"), else UINT64_MAX. */
static uint64_t cgroup_limit(void)
{
	char line[4096], path[4200];
	uint64_t lim = UINT64_MAX;
	FILE *f = fopen("/proc/self/cgroup", "r");
	if (!f)
		return lim;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3) != 0)
			continue;
		line[strcspn(line, "\n")] = 0;
		snprintf(path, sizeof(path), "/sys/fs/cgroup%s/memory.max",
			 strcmp(line + 3, "/") ? line + 3 : "");
		FILE *m = fopen(path, "r");
		unsigned long long v;
		if (m && fscanf(m, "%llu", &v) == 1) /* "max" reads as no number */
			lim = v;
		if (m)
			fclose(m);
	}
	fclose(f);
	return lim;
}

uint64_t jh_default_max_memory(void)
{
	uint64_t lim = UINT64_MAX;
	long pages = sysconf(_SC_PHYS_PAGES), pg = sysconf(_SC_PAGESIZE);
	if (pages > 0 && pg > 0)
		lim = (uint64_t)pages * (uint64_t)pg;
	uint64_t cg = cgroup_limit();
	if (cg < lim)
		lim = cg;
	struct rlimit rl;
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (uint64_t)rl.rlim_cur < lim)
		lim = (uint64_t)rl.rlim_cur;
	return lim == UINT64_MAX ? lim : lim / 2;
}

void jh_mem_budget_set(uint64_t limit)
{
	atomic_store(&ceiling, limit ? limit : jh_default_max_memory());
}

uint64_t jh_mem_budget_limit(void)
{
	uint64_t c = atomic_load(&ceiling);
	return c ? c : jh_default_max_memory();
}

uint64_t jh_mem_budget_used(void)
{
	return atomic_load(&used);
}

int jh_mem_reserve(uint64_t n)
{
	uint64_t lim = jh_mem_budget_limit();
	uint64_t cur = atomic_load(&used);
	do {
		if (n > lim || cur > lim - n)
			return -1;
	} while (!atomic_compare_exchange_weak(&used, &cur, cur + n));
	return 0;
}

void jh_mem_release(uint64_t n)
{
	atomic_fetch_sub(&used, n);
}
