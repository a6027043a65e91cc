/*
 * args_hint.h - usage errors that say what was meant: the nearest option
 * names for an unknown or ambiguous one, and the arguments' roles (program,
 * profile, --base) checked against what the files are.
 */
#ifndef JEHEAP_ARGS_HINT_H
#define JEHEAP_ARGS_HINT_H

#include "jeheap/options.h"

/* The i-th option name, NULL past the last. */
typedef const char *(*jh_opt_name_fn)(size_t i);

/* The first n letters of a and b (or both whole, when shorter) are equal,
 * '-' and '_' being one letter: --show-bytes is --show_bytes. */
int jh_opt_same(const char *a, const char *b, size_t n);

/* Sets d to "unknown option '--NAME'", with the nearest spellings
 * ("did you mean --collapsed?") when some are close. Returns -1. */
int jh_hint_unknown_opt(struct jh_diag *d, const char *name, size_t len, jh_opt_name_fn names);
/* Sets d to "option '--NAME' is ambiguous: --a --b ..." (the options that
 * NAME, after skip bytes of "no"/"no-", is a prefix of). Returns -1. */
int jh_hint_ambiguous_opt(struct jh_diag *d, const char *name, size_t len, size_t skip,
			  jh_opt_name_fn names);

/*
 * Checks the positional arguments pos[0..npos) against their roles (pos[0]
 * is the program when first is 1, the rest are profiles) and the --base
 * files of o: a program after the profiles, a first argument that is
 * neither a program nor a profile, a report given where a profile should
 * be. Returns 0, or -1 with d set to a one-line hint.
 */
int jh_hint_check_args(const struct jh_options *o, char **pos, size_t npos, size_t first,
		       struct jh_diag *d);
/* --symbols PROG: -1 with d set when PROG is a profile, not a program. */
int jh_hint_check_symbols(const char *prog, struct jh_diag *d);

#endif
