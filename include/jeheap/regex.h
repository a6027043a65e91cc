/*
 * analyse_filter.h - Perl-syntax regexes (PCRE2) for --focus, --ignore,
 * --retain, --exclude: compiled once (JIT when available), results cached per
 * interned string so each distinct name is matched once.
 */
#ifndef JEHEAP_ANALYSE_FILTER_H
#define JEHEAP_ANALYSE_FILTER_H

#include "jeheap/base.h"

struct jh_filter;

/* Compiles pattern (unanchored, case-sensitive); NULL with d set
 * (JH_EXIT_USAGE, "--<opt>: bad regex ...") on error. */
struct jh_filter *jh_filter_new(const char *opt, const char *pattern, struct jh_diag *d);
void jh_filter_free(struct jh_filter *f);
/* Matches an interned (stable) string; the result is cached by pointer. */
int jh_filter_match_interned(struct jh_filter *f, const char *s);
/* Matches s[0..n) without caching. */
int jh_filter_match(struct jh_filter *f, const char *s, size_t n);

#endif
