/*
 * base.h - memory, growable arrays, strings, interning and diagnostics.
 *
 * Ownership rule for the whole code base: a function that returns a pointer
 * documents who frees it; interned strings (jh_intern) live until
 * jh_intern_release and are compared by pointer.
 * Out-of-memory ends the process (xmalloc and friends never return NULL).
 */
#ifndef JEHEAP_BASE_H
#define JEHEAP_BASE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define JH_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define JH_PRINTF(f, a) __attribute__((format(printf, f, a)))

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* n * size, ending the process on overflow. */
size_t jh_st_mult(size_t n, size_t size);

/* qsort that accepts an empty (possibly NULL) array: qsort(NULL, 0, ...) is
 * undefined behaviour (UBSan flags it; fuzz_elf found two). */
static inline void jh_qsort(void *base, size_t n, size_t size,
			    int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

/* qsort comparison of two uint64_t. */
static inline int jh_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/*
 * Grow an (items, nr, alloc) array so that index NR-1 .. (want-1) exists.
 * Usage: JH_GROW(p->items, p->nr + 1, p->alloc); p->items[p->nr++] = x;
 */
#define JH_GROW(items, want, alloc)                                                       \
	do {                                                                              \
		if ((size_t)(want) > (size_t)(alloc)) {                                   \
			size_t jh_n_ = (alloc) < 16 ? 16 : (size_t)(alloc)*2;             \
			if (jh_n_ < (size_t)(want))                                       \
				jh_n_ = (size_t)(want);                                   \
			(items) = xrealloc((items), jh_st_mult(jh_n_, sizeof(*(items)))); \
			(alloc) = jh_n_;                                                  \
		}                                                                         \
	} while (0)

/*
 * strbuf: a growable NUL-terminated string. buf is never NULL after
 * jh_sb_init; len excludes the NUL.
 */
struct jh_sb {
	char *buf;
	size_t len, alloc;
};
#define JH_SB_INIT         \
	{                  \
		NULL, 0, 0 \
	}
void jh_sb_init(struct jh_sb *sb);
void jh_sb_release(struct jh_sb *sb);
void jh_sb_reset(struct jh_sb *sb);
void jh_sb_grow(struct jh_sb *sb, size_t extra);
void jh_sb_add(struct jh_sb *sb, const void *data, size_t n);
void jh_sb_adds(struct jh_sb *sb, const char *s);
void jh_sb_addc(struct jh_sb *sb, char c);
void jh_sb_addf(struct jh_sb *sb, const char *fmt, ...) JH_PRINTF(2, 3);
void jh_sb_vaddf(struct jh_sb *sb, const char *fmt, va_list ap);
/* Hands the buffer to the caller (free()) and re-initialises sb. */
char *jh_sb_detach(struct jh_sb *sb);

/*
 * Names in text output (base.c): a control character (below 0x20, or
 * 0x7f) becomes a visible escape ("\n", "\r", "\t", "\x01") so that one
 * record is always one line. jh_visible_escape writes c's escape to out and
 * returns its length (0: c is written as it is).
 */
size_t jh_visible_escape(unsigned char c, char out[5]);
int jh_has_control(const char *s);
void jh_sb_add_visible(struct jh_sb *sb, const char *s);

/*
 * Arena: bump allocator; everything is freed at once by jh_arena_release.
 */
struct jh_arena_block;
struct jh_arena {
	struct jh_arena_block *head;
	size_t used, cap;
};
void *jh_arena_alloc(struct jh_arena *a, size_t n); /* 8-byte aligned */
char *jh_arena_strndup(struct jh_arena *a, const char *s, size_t n);
void jh_arena_release(struct jh_arena *a);

/*
 * String interning: equal strings give the same pointer. Not thread-safe.
 * Every string a jh_intern holds is preceded by the JH_NAME_PAD bytes of
 * JH_NAME_PREFIX: --collapsed writes a name with the separator before it,
 * "[inline];name" or ";name", straight from where it is held.
 */
#define JH_NAME_PREFIX "[inline];"
#define JH_NAME_PAD 9
/* A copy of s[0..n), NUL-terminated, after JH_NAME_PREFIX, in a. */
char *jh_arena_name(struct jh_arena *a, const char *s, size_t n);

struct jh_intern {
	struct jh_arena arena;
	const char **slots;
	size_t nr, cap;
	uint64_t *hashes; /* per slot: jh_hash_str of its string */
};
void jh_intern_init(struct jh_intern *t);
void jh_intern_release(struct jh_intern *t);
const char *jh_intern(struct jh_intern *t, const char *s);
const char *jh_intern_n(struct jh_intern *t, const char *s, size_t n);
/* jh_intern_n without a copy: s[0..n) (NUL-terminated, after
 * JH_NAME_PREFIX, h = jh_hash_str(s, n)) itself becomes the interned
 * string if none is equal, so it must live as long as t: memory of an
 * arena handed over with jh_intern_keep. */
const char *jh_intern_nocopy(struct jh_intern *t, const char *s, size_t n, uint64_t h);
/* Moves every block of a into t's arena (a is left empty). */
void jh_intern_keep(struct jh_intern *t, struct jh_arena *a);

/*
 * u64 -> u64 open-addressing hash map (key UINT64_MAX is reserved).
 */
struct jh_u64map {
	uint64_t *keys, *vals;
	size_t nr, cap;
};
void jh_u64map_init(struct jh_u64map *m);
void jh_u64map_release(struct jh_u64map *m);
/* Returns a pointer to the value slot for key, inserting (value 0) if absent;
 * *added tells whether it was inserted. Pointer valid until the next insert. */
uint64_t *jh_u64map_put(struct jh_u64map *m, uint64_t key, int *added);
/* Returns NULL if key is absent. */
uint64_t *jh_u64map_get(const struct jh_u64map *m, uint64_t key);

/* Hash of the bytes p[0..n), the length mixed in (16 bytes per multiply,
 * wyhash-style); used for strings and uint32_t sequences alike. */
uint64_t jh_hash_str(const void *p, size_t n);
static inline uint64_t jh_hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/*
 * Diagnostics. Library code never prints errors or exits: it fills a
 * jh_diag and returns -1; main.c prints "jeheap: <msg>" and picks the exit
 * code. Warnings (jh_warn) and notes (jh_note) go to the one sink the
 * program registers at start-up (main.c: stderr, "jeheap: warning: ..."
 * unless --quiet, notes as they are); without a sink they are dropped.
 */
enum jh_exit {
	JH_EXIT_OK = 0,
	JH_EXIT_USAGE = 1,     /* bad command line (jeprof's usage() exit code) */
	JH_EXIT_INPUT = 2,     /* missing, unreadable or malformed input file */
	JH_EXIT_OUTPUT = 3,    /* cannot write output; graphviz missing or failed */
	JH_EXIT_NODATA = 4,    /* nothing to show where a report needs data (dot: no nodes) */
	JH_EXIT_GROWTH = 5,    /* --fail-on-growth: memory grew more than the threshold */
	JH_EXIT_INTERNAL = 70, /* out of memory, internal error */
};
struct jh_diag {
	char msg[1024];
	int code; /* enum jh_exit */
};
/* Formats "FILE:LINE: what" (line 0 = omitted) into d, returns -1. */
int jh_diag_set(struct jh_diag *d, int code, const char *file, unsigned long line, const char *fmt,
		...) JH_PRINTF(5, 6);
/* What a message for the user is: a warning, or a note ("opening F with P"). */
enum jh_msg {
	JH_MSG_WARNING,
	JH_MSG_NOTE,
};
void jh_warn(const char *fmt, ...) JH_PRINTF(1, 2);
void jh_note(const char *fmt, ...) JH_PRINTF(1, 2);
/* The sink of jh_warn and jh_note: gets the formatted message (no newline). */
typedef void (*jh_warn_fn)(enum jh_msg kind, const char *msg);
/* Sets the sink; call once, before any thread starts. NULL = dropped. */
void jh_set_warn(jh_warn_fn fn);

/*
 * Out of memory (xmalloc and friends) ends the program with status 70 and the
 * one line "jeheap: out of memory while reading WHAT": the stages name here
 * what they are reading (a copy is kept; the latest wins, on any thread).
 */
void jh_oom_reading(const char *what);
/* The name set last (empty if none) into buf[0, n), to set it back later. */
void jh_oom_current(char *buf, size_t n);

#endif
