/*
 * jh_demangle.h - C++ and Rust (legacy and v0) symbol demangling with
 * libiberty, producing the same text as `addr2line -C`.
 */
#ifndef JEHEAP_JH_DEMANGLE_H
#define JEHEAP_JH_DEMANGLE_H

/*
 * Returns the demangled form of name as a malloc'd string (caller frees), or
 * NULL when name is not a mangled symbol or cannot be demangled (the caller
 * then keeps name as it is). Thread-safe.
 */
char *jh_demangle(const char *name);

#endif
