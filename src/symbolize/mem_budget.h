/*
 * mem_budget.h - the ceiling on the DWARF memory of a run (--max-memory):
 * mapped debug files and inflated compressed sections are reserved against
 * it before they are mapped or inflated (mem_budget.c).
 */
#ifndef JEHEAP_MEM_BUDGET_H
#define JEHEAP_MEM_BUDGET_H

#include <stdint.h>

/* Sets the ceiling in bytes; 0 = jh_default_max_memory(). */
void jh_mem_budget_set(uint64_t limit);
uint64_t jh_mem_budget_limit(void);
uint64_t jh_mem_budget_used(void);
/* Reserves n bytes: 0, or -1 (nothing reserved) when that would pass the ceiling. */
int jh_mem_reserve(uint64_t n);
void jh_mem_release(uint64_t n);

#endif
