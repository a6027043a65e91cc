/*
 * names.h - how frames are named in each output (docs/jeprof.md §2):
 * jeprof's ShortFunctionName, " (inline)" display keys, collapsed
 * "[inline]" names, "??" handling and "libname+0xOFF" for unknown frames
 * inside a known module (where jeprof prints a bare hex pc).
 */
#ifndef JEHEAP_NAMES_H
#define JEHEAP_NAMES_H

#include "jeheap/model.h"

/* The module whose name may be shown for l ("libname+0xOFF"): NULL for
 * names from a .symbolized file, which are shown exactly as jeprof does
 * (their module is only used to identify the location). */
static inline const char *jh_loc_shown_module(const struct jh_location *l)
{
	return l->status == JH_SYM_EMBEDDED ? NULL : l->module;
}

/* jeprof's ShortFunctionName of full, appended to out. */
void jh_short_function_name(struct jh_sb *out, const char *full);

/*
 * Matching functions across builds (--normalize, names_normalize.c):
 * JH_NORM_CLONES drops the compiler's clone suffixes (".constprop.N",
 * ".isra.N", ".part.N", ".cold", ".cold.N", " [clone .xxx]", repeated or
 * combined), JH_NORM_TEMPLATES also drops balanced template arguments
 * "<...>" (names holding "operator" keep theirs). JH_NORM_NONE is the
 * command line's "never" (not a rule).
 */
enum { JH_NORM_CLONES = 1, JH_NORM_TEMPLATES = 2, JH_NORM_NONE = 4 };
/* Normalises name[0..n) by flags in place (it only shrinks); returns the
 * new length, name NUL-terminated there. */
size_t jh_normalize_name(char *name, size_t n, unsigned flags);

/* Caches short names and file:line strings per interned string. */
struct jh_namer {
	struct jh_intern *names; /* where results are interned */
	struct jh_u64map shorts; /* full-name pointer -> short-name pointer */
	struct jh_sb tmp;
	unsigned normalize; /* JH_NORM_CLONES | JH_NORM_TEMPLATES: short names normalised */
};
void jh_namer_init(struct jh_namer *n, struct jh_intern *names);
void jh_namer_release(struct jh_namer *n);
/* Interned ShortFunctionName(full); full must be interned in n->names or
 * live as long as the namer. */
const char *jh_namer_short(struct jh_namer *n, const char *full);

/* The pc key jeprof uses: 16 lowercase hex digits, no 0x. */
void jh_pc_key(struct jh_sb *sb, uint64_t pc);

/* "file:line" of frame level of location l as jeprof shows it: "?" for
 * names from a .symbolized file, "??:0" when unknown, else "file:line". */
void jh_frame_fileline(struct jh_sb *sb, const struct jh_model *m, const struct jh_location *l,
		       uint32_t level);
/* Name of a location that has no frames at all: "libname+0xOFF" when its
 * module is known, else the bare pc key (jeprof). */
void jh_unknown_name(struct jh_sb *sb, const struct jh_location *l);
/* --collapsed name of a location: full names outermost first,
 * "F;G[inline];H[inline]", "??" replaced by "??:0" (symbolized) or the
 * file:line; ';' in names becomes ':' and control characters visible
 * escapes ("\\n", "\\x01"): one stack, one line. */
void jh_collapsed_name(struct jh_sb *sb, const struct jh_model *m, const struct jh_location *l);
/* One named frame of it: func made safe, "[inline]" appended when inl. */
void jh_collapsed_frame(struct jh_sb *sb, const char *func, int inl);
/* The same written to dst (room for jh_collapsed_frame_len(func, n) + 8
 * bytes, n = strlen(func)), not NUL-terminated; returns its length. */
size_t jh_collapsed_frame_to(char *dst, const char *func, size_t n, int inl);
/* The length of func made safe (without "[inline]"). */
size_t jh_collapsed_frame_len(const char *func, size_t n);

#endif
