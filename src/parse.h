/*
 * parse.h - private interface shared by the profile readers (parse*.c) and
 * the model (profile.c).
 *
 * Every reader pulls lines from one jh_input and fills one jh_profile.
 * Readers return 0 or -1. A malformed line is reported with jh_bad_line,
 * which sets the diagnostic, except when the line is the unterminated last
 * line of the input (a truncated dump): then it warns, sets r->truncated and
 * the dispatcher turns the -1 into success, keeping what was read.
 */
#ifndef JEHEAP_PARSE_H
#define JEHEAP_PARSE_H

#include "input.h"
#include <string.h>
#include "jeheap/profile.h"

struct jh_reader {
	struct jh_profile *p;
	struct jh_input *in;
	struct jh_diag *d;
	int truncated;        /* the last line was cut off; stop quietly */
	uint64_t *pcs;        /* scratch stack */
	size_t npcs, pcs_alloc;
	uint64_t pcs_hash;    /* jh_stack_hash_step over pcs */
	struct jh_sb sb;      /* scratch line ($build substitution) */
	struct jh_sb quote;   /* jh_quote's buffer */
	uint32_t tcache[256]; /* thread uid -> index + 1 (0 = not looked up yet) */
};

/* Character classes: Perl's \s (space \t \n \v \f \r). */
extern const unsigned char jh_space_tab[256];
static inline int jh_isspace(char c)
{
	return jh_space_tab[(unsigned char)c];
}
static inline const char *jh_skip_space(const char *s, const char *e)
{
	while (s < e && jh_isspace(*s))
		s++;
	return s;
}
static inline const char *jh_rskip_space(const char *s, const char *e)
{
	while (e > s && jh_isspace(e[-1]))
		e--;
	return e;
}
static inline int jh_starts(const char *s, const char *e, const char *lit, size_t n)
{
	return (size_t)(e - s) >= n && memcmp(s, lit, n) == 0;
}
#define JH_STARTS(s, e, lit) jh_starts((s), (e), (lit), sizeof(lit) - 1)

/* Reads the next line; 1 = line, 0 = end, -1 = error (d set). */
int jh_next_line(struct jh_reader *r, char **line, size_t *len);
/* Reports a malformed current line (see above); always returns -1. */
int jh_bad_line(struct jh_reader *r, const char *fmt, ...) JH_PRINTF(2, 3);
/* Quotes s[0..n) for a message: at most 60 bytes, control bytes as '?'. */
const char *jh_quote(struct jh_reader *r, const char *s, size_t n);

/*
 * Number parsers. Each advances *s past what it read and returns 0, or -1
 * with a message via jh_bad_line. jh_parse_dec: unsigned decimal (at least
 * one digit, fits in 64 bits). jh_parse_hex: optional 0x, at most 16
 * significant hex digits, followed by whitespace or the end. The inline
 * versions take the common case; anything unusual goes to the _slow ones.
 */
extern const unsigned char jh_hexval[256]; /* hex digit value + 1, 0 = none */
int jh_parse_dec_slow(struct jh_reader *r, const char **s, const char *e, uint64_t *v);
int jh_parse_hex_slow(struct jh_reader *r, const char **s, const char *e, uint64_t *v);

static inline int jh_parse_dec(struct jh_reader *r, const char **sp, const char *e, uint64_t *v)
{
	const char *s = *sp, *b = s;
	uint64_t x = 0;
	unsigned dg;
	while (s < e && (dg = (unsigned)(*s - '0')) < 10 && s - b < 19) {
		x = x * 10 + dg;
		s++;
	}
	if (s == b || s - b == 19)
		return jh_parse_dec_slow(r, sp, e, v);
	*v = x;
	*sp = s;
	return 0;
}

static inline int jh_parse_hex(struct jh_reader *r, const char **sp, const char *e, uint64_t *v)
{
	const char *s = *sp;
	if (e - s >= 2 && s[0] == '0' && (s[1] | 0x20) == 'x')
		s += 2;
	const char *b = s;
	uint64_t x = 0;
	unsigned h;
	while (s < e && (h = jh_hexval[(unsigned char)*s])) {
		x = x << 4 | (h - 1);
		s++;
	}
	if (s == b || s - b > 16 || (s < e && !jh_isspace(*s)))
		return jh_parse_hex_slow(r, sp, e, v);
	*v = x;
	*sp = s;
	return 0;
}
/* Requires at least one whitespace at *s and skips the run. */
int jh_parse_space(struct jh_reader *r, const char **s, const char *e, const char *what);
/* "<n1>:\s+<s1>\s+[\s*<n2>:\s+<s2>]" -> v[0..3]. */
int jh_parse_quad(struct jh_reader *r, const char **s, const char *e, uint64_t v[4]);
/* Whitespace-separated addresses -> r->pcs, leaf kept, callers - 1 (wrapping). */
int jh_parse_stack(struct jh_reader *r, const char *s, const char *e);

/* Sampling correction of one count line in jeprof's operation order
 * (AdjustSamples): algo 0 none, 1 v1 (gperftools), 2 v2 (Poisson). Returns
 * -1 with a message where jeprof would divide by zero. */
int jh_adjust(struct jh_reader *r, int algo, double period, const uint64_t raw[4],
	      struct jh_counts *c);
/* Next body line of a heap profile: 1 with [*s, *e) trimmed and non-blank,
 * 0 at the end (end of input, or a map section, which has then been read
 * into the profile), -1 on error. */
int jh_body_line(struct jh_reader *r, const char **s, const char **e);

/* Profile bodies; header is the header line (already read). */
int jh_parse_heapv2(struct jh_reader *r, const char *header, size_t hlen);
int jh_parse_legacy(struct jh_reader *r, const char *header, size_t hlen);
/* After a "--- symbol" line: symbols, then the embedded profile. */
int jh_parse_symbolized(struct jh_reader *r);
/* Reads the next header (skipping % command lines) and runs the reader for
 * it; after_symbols changes the message for an unknown header. */
int jh_parse_profile(struct jh_reader *r, int after_symbols);
/* The rest of the input is a memory map (MAPPED_LIBRARIES: or, with
 * memory_map set, "--- Memory map:" with build= substitution). */
int jh_parse_maps(struct jh_reader *r, int memory_map);

/* Model helpers (profile.c). */
/* The stack hash, one pc at a time (readers hash while they parse). */
static inline uint64_t jh_stack_hash_step(uint64_t h, uint64_t pc)
{
	h = (h ^ pc) * 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 29);
}
/* jh_profile_intern_stack with the hash of pcs already computed. */
uint32_t jh_profile_intern_stack_hashed(struct jh_profile *p, const uint64_t *pcs, uint32_t n,
					uint64_t hash);
void jh_profile_add_symbol(struct jh_profile *p, uint64_t pc, const char *names, size_t n);
/* Sorts syms by pc; of several lines for one pc the last one is kept. */
void jh_profile_sort_symbols(struct jh_profile *p);

#endif
