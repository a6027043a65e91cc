/*
 * sym_identity.h - the binary identity check: the sampled return addresses
 * of a module must follow call instructions in its file.
 */
#ifndef JEHEAP_SYM_IDENTITY_H
#define JEHEAP_SYM_IDENTITY_H

#include "sym_module.h"

/* How many of the module addresses a[0..n) (callers caller-adjusted, i.e.
 * return address - 1, or leaves) do not follow a call in m's binary. */
size_t jh_module_not_returns(const struct jh_module *m, const uint64_t *a, size_t n);
/* The file offset of module address vaddr (in a PT_LOAD's file bytes): 0, or -1. */
int jh_module_file_offset(const struct jh_module *m, uint64_t vaddr, uint64_t *off);

#endif
