/*
 * demangle.c - libiberty's cplus_demangle with addr2line -C's flags.
 *
 * DMGL_PARAMS|DMGL_ANSI in the default (auto) style handles C++ (_Z...),
 * Rust legacy (_ZN...17h<hash>E, the hash is dropped) and Rust v0 (_R...).
 * DMGL_RUST alone would break C++ names, and DMGL_VERBOSE is c++filt's style,
 * not addr2line's. Very deep template names (boost, spirit) exceed the
 * default recursion limit and come back NULL: they are retried without it.
 */
#include "jh_demangle.h"

#include <libiberty/demangle.h>
#include <stdlib.h>

char *jh_demangle(const char *name)
{
	if (!name || name[0] != '_')
		return NULL;
	char *r = cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI);
	if (!r)
		r = cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI | DMGL_NO_RECURSE_LIMIT);
	return r;
}
