/*
 * parse.h - private interface of the input stage, shared by the profile
 * readers (parse*.c) and the raw profile (profile*.c).
 *
 * Every reader pulls lines from one jh_input and fills one jh_profile.
 * Readers return 0 or -1. A malformed line is reported with jh_bad_line,
 * which sets the diagnostic, except when the line is the unterminated last
 * line of the input (a truncated dump): then it warns, sets r->truncated and
 * the dispatcher turns the -1 into success, keeping what was read.
 */
#ifndef JEHEAP_PARSE_H
#define JEHEAP_PARSE_H

#include "jeheap/input.h"
#include <string.h>
#include "jeheap/profile.h"

struct jh_reader {
	struct jh_profile *p;
	struct jh_input *in;
	struct jh_diag *d;
	int truncated;         /* the last line was cut off; stop quietly */
	int body;              /* a profile header was read (heap_v2 or legacy) */
	int body_lines;        /* a line other than blanks came after that header */
	int maps;              /* a memory map section was read */
	int map_warned;        /* an unrecognised map line was warned about */
	struct jh_counts sum;  /* the counts added so far (jh_sum_add) */
	struct jh_counts tsum; /* the same for the threads' counts */
	uint64_t *pcs;         /* scratch stack */
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
static inline int jh_next_line(struct jh_reader *r, char **line, size_t *len)
{
	return jh_input_line(r->in, line, len, r->d);
}
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

/* The 8 bytes at s, s[0] in the lowest byte (the SWAR code below counts
 * on it). */
static inline uint64_t jh_load8(const char *s)
{
	uint64_t w;
	memcpy(&w, s, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/* Number of leading ASCII digits in the 8 bytes of w (the first in the
 * lowest byte), 8 if all are. */
static inline size_t jh_ndig8(uint64_t w)
{
	uint64_t d = w ^ 0x3030303030303030ULL; /* digits: 0..9 */
	uint64_t m = (((d & 0x7f7f7f7f7f7f7f7fULL) + 0x7676767676767676ULL) | d) &
		     0x8080808080808080ULL;
	return m ? (size_t)__builtin_ctzll(m) >> 3 : 8;
}

/* Value of the n ASCII digits (1 <= n <= 8) at the start of w (the first
 * in the lowest byte; the bytes after them are shifted out). */
static inline uint64_t jh_dec8(uint64_t w, size_t n)
{
	w = (w - 0x3030303030303030ULL) << (8 * (8 - n));
	w = (w * 10 + (w >> 8)) & 0x00ff00ff00ff00ffULL;
	w = (w * 100 + (w >> 16)) & 0x0000ffff0000ffffULL;
	return (w * 10000 + (w >> 32)) & 0xffffffffULL;
}

/* The usual number: 1 to 7 digits at s followed by some other byte; returns
 * the count of digits (0 = not that case) with *v set. Reads s[0..8): s
 * must be at most the line's NUL (JH_INPUT_PAD, see input.h). */
static inline size_t jh_dec_short(const char *s, uint64_t *v)
{
	unsigned d0 = (unsigned)((unsigned char)s[0] - '0');
	if (d0 >= 10)
		return 0;
	if ((unsigned)((unsigned char)s[1] - '0') >= 10) { /* most counts: 1 digit */
		*v = d0;
		return 1;
	}
	uint64_t w = jh_load8(s);
	size_t n = jh_ndig8(w);
	if (n - 1 >= 7)
		return 0;
	*v = jh_dec8(w, n);
	return n;
}

/* Reads s[0..8) (see jh_dec_short). */
static inline int jh_parse_dec(struct jh_reader *r, const char **sp, const char *e, uint64_t *v)
{
	const char *s = *sp, *b = s;
	size_t n = jh_dec_short(s, v);
	if (n && s + n <= e) {
		*sp = s + n;
		return 0;
	}
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

/* Value of 8 ASCII hex digits, the first in the lowest byte of w (bytes
 * that are 0 count as leading zeros). */
static inline uint64_t jh_hex8(uint64_t w)
{
	uint64_t v = (w & 0x0f0f0f0f0f0f0f0fULL) + 9 * ((w >> 6) & 0x0101010101010101ULL);
	v = ((v << 4) | (v >> 8)) & 0x00ff00ff00ff00ffULL;
	v = ((v << 8) | (v >> 16)) & 0x0000ffff0000ffffULL;
	return ((v << 16) | (v >> 32)) & 0xffffffffULL;
}

/* 0x80 in each byte of w that is an ASCII hex digit, 0 elsewhere. */
static inline uint64_t jh_hexmask8(uint64_t w)
{
	const uint64_t o = 0x0101010101010101ULL, h = 0x8080808080808080ULL;
	uint64_t x = w & ~h, l = x | (0x20 * o);
	uint64_t dig = (x + 0x50 * o) & ~(x + 0x46 * o); /* '0' <= x <= '9' */
	uint64_t let = (l + 0x1f * o) & ~(l + 0x19 * o); /* 'a' <= x|0x20 <= 'f' */
	return (dig | let) & ~w & h;
}

/* The common case of jh_parse_hex once any 0x is skipped: the n hex digits
 * at s, 1 <= n <= 16, are followed by the end e or whitespace. */
static inline int jh_hex_ok(const char *s, size_t n, const char *e)
{
	return n - 1 < 16 && s + n <= e && (s + n == e || jh_isspace(s[n]));
}

/* Skips an optional 0x or 0X at s (e - s >= 2 for it to count). */
static inline const char *jh_skip_0x(const char *s, const char *e)
{
	return e - s >= 2 && s[0] == '0' && (s[1] | 0x20) == 'x' ? s + 2 : s;
}

/* jh_parse_hex, 8 bytes at a time in general purpose registers (the
 * portable version). Needs JH_INPUT_PAD readable bytes after the line, as
 * the one below. */
static inline int jh_parse_hex_swar(struct jh_reader *r, const char **sp, const char *e,
				    uint64_t *v)
{
	const char *s = jh_skip_0x(*sp, e);
	uint64_t a = jh_load8(s), b = jh_load8(s + 8), m;
	size_t n;
	if ((m = ~jh_hexmask8(a) & 0x8080808080808080ULL))
		n = (size_t)__builtin_ctzll(m) >> 3;
	else if ((m = ~jh_hexmask8(b) & 0x8080808080808080ULL))
		n = 8 + ((size_t)__builtin_ctzll(m) >> 3);
	else /* 16 hex digits: the 17th byte is at most the line's NUL */
		n = jh_hexval[(unsigned char)s[16]] ? 17 : 16;
	if (!jh_hex_ok(s, n, e))
		return jh_parse_hex_slow(r, sp, e, v);
	if (n <= 8) {
		*v = jh_hex8(a << (8 * (8 - n)));
	} else {
		b = jh_load8(s + n - 8);
		*v = jh_hex8(a << (8 * (16 - n))) << 32 | jh_hex8(b);
	}
	*sp = s + n;
	return 0;
}


/* Reads up to s[16] past any 0x (JH_INPUT_PAD, see above). */
static inline int jh_parse_hex(struct jh_reader *r, const char **sp, const char *e, uint64_t *v)
{
	return jh_parse_hex_swar(r, sp, e, v);
}

/* Requires at least one whitespace at *s and skips the run. */
static inline int jh_parse_space(struct jh_reader *r, const char **s, const char *e,
				 const char *what)
{
	if (*s >= e || !jh_isspace(**s))
		return jh_bad_line(r, "%s", what);
	*s = jh_skip_space(*s + 1, e);
	return 0;
}

static inline int jh_expect(struct jh_reader *r, const char **s, const char *e, char c,
			    const char *what)
{
	if (*s >= e || **s != c)
		return jh_bad_line(r, "%s", what);
	(*s)++;
	return 0;
}

/* "<n1>:\s+<s1>\s+[\s*<n2>:\s+<s2>]" -> v[0..3]. Reads up to 8 bytes past
 * the line's end (JH_INPUT_PAD, see input.h). */
static inline int jh_parse_quad(struct jh_reader *r, const char **sp, const char *e, uint64_t v[4])
{
	static const char fmt[] = "bad count line: expected '<objs>: <bytes> [<objs>: <bytes>]'";
	const char *s = *sp;
	size_t n;
	/* the usual "1: 2 [3: 4]" (short numbers, single spaces): the bytes are
	 * read until one does not fit, which the line's NUL never does, and
	 * the result counts if it ends within the line */
	if ((n = jh_dec_short(s, &v[0])) && s[n] == ':' && s[n + 1] == ' ' &&
	    (s += n + 2, n = jh_dec_short(s, &v[1])) && s[n] == ' ' && s[n + 1] == '[' &&
	    (s += n + 2, n = jh_dec_short(s, &v[2])) && s[n] == ':' && s[n + 1] == ' ' &&
	    (s += n + 2, n = jh_dec_short(s, &v[3])) && s[n] == ']' && s + n < e) {
		*sp = s + n + 1;
		return 0;
	}
	s = *sp;
	if (jh_parse_dec(r, &s, e, &v[0]) || jh_expect(r, &s, e, ':', fmt) ||
	    jh_parse_space(r, &s, e, fmt) || jh_parse_dec(r, &s, e, &v[1]) ||
	    jh_parse_space(r, &s, e, fmt) || jh_expect(r, &s, e, '[', fmt))
		return -1;
	s = jh_skip_space(s, e);
	if (jh_parse_dec(r, &s, e, &v[2]) || jh_expect(r, &s, e, ':', fmt) ||
	    jh_parse_space(r, &s, e, fmt) || jh_parse_dec(r, &s, e, &v[3]) ||
	    jh_expect(r, &s, e, ']', fmt))
		return -1;
	*sp = s;
	return 0;
}
/* Whitespace-separated addresses -> r->pcs, leaf kept, callers - 1 (wrapping). */
int jh_parse_stack(struct jh_reader *r, const char *s, const char *e);

/* Sampling correction of one count line in jeprof's operation order
 * (AdjustSamples): algo 0 none, 1 v1 (gperftools), 2 v2 (Poisson); 3 is
 * Go pprof's v2 (scaleHeapSample: no correction for a period of 1 or less,
 * each value truncated to an integer, 0 objects or 0 bytes give 0). Returns
 * -1 with a message where jeprof would divide by zero. */
int jh_adjust(struct jh_reader *r, int algo, double period, const uint64_t raw[4],
	      struct jh_counts *c);
/* Adds c to *sum; -1 with a message naming the current line when a sum
 * reaches 2^63 (a Total that no report could print exactly). */
int jh_sum_over(struct jh_reader *r, const struct jh_counts *sum);
static inline int jh_sum_add(struct jh_reader *r, struct jh_counts *sum, const struct jh_counts *c)
{
	double a = sum->v[0] += c->v[0], b = sum->v[1] += c->v[1];
	double x = sum->v[2] += c->v[2], y = sum->v[3] += c->v[3];
	if (a < 0x1p63 && b < 0x1p63 && x < 0x1p63 && y < 0x1p63)
		return 0;
	return jh_sum_over(r, sum);
}
/* Only the checks of jh_adjust (same messages), for counts not kept. */
int jh_adjust_check(struct jh_reader *r, int algo, double period, const uint64_t raw[4]);
/* Next body line of a heap profile: 1 with [*s, *e) trimmed and non-blank,
 * 0 at the end (end of input, or a map section, which has then been read
 * into the profile), -1 on error. */
int jh_body_line(struct jh_reader *r, const char **s, const char **e);

/* Profile bodies; header is the header line (already read). */
int jh_parse_heapv2(struct jh_reader *r, const char *header, size_t hlen);
int jh_parse_legacy(struct jh_reader *r, const char *header, size_t hlen);
/* After a "--- symbol" line: the symbols; returns 1 when the embedded
 * profile follows (the dispatcher reads it), else -1. */
int jh_parse_symbolized(struct jh_reader *r);
/* pprof's profile.proto (parse_pprof.c): whether the input starts like
 * one (binary protobuf, not text): 1, 0, or -1 when its start cannot be
 * read (d set); and the reader (the whole input). */
int jh_is_pprof(struct jh_reader *r);
int jh_parse_pprof(struct jh_reader *r);
/* Reads the next header (skipping % command lines) and runs the reader for
 * it; after_symbols changes the message for an unknown header. */
int jh_parse_profile(struct jh_reader *r, int after_symbols);
/* The rest of the input is a memory map (after MAPPED_LIBRARIES: or
 * "--- Memory map:"). */
int jh_parse_maps(struct jh_reader *r);

/* Model helpers (profile.c). */
/* The stack hash, one pc at a time (readers hash while they parse). */
static inline uint64_t jh_stack_hash_step(uint64_t h, uint64_t pc)
{
	/* the rotation carries the high bits of earlier pcs down (the stack
	 * table mixes the result again, see stack_tag) */
	return ((h << 27 | h >> 37) ^ pc) * 0x9e3779b97f4a7c15ULL;
}
/* jh_profile_intern_stack with the hash of pcs already computed. */
uint32_t jh_profile_intern_stack_hashed(struct jh_profile *p, const uint64_t *pcs, uint32_t n,
					uint64_t hash);
/* Tables of (key, value) pairs, value 0 = empty, linear probing from
 * key & (cap - 1), or jh_hash_u64(key) & (cap - 1) with mix: returns a copy
 * of old (oldcap slots, freed) with cap slots. */
uint64_t *jh_pairs_resize(uint64_t *old, size_t oldcap, size_t cap, int mix);
/* Dense pc ids (profile_pcs.c): out[i] = the id of pcs[i], new ids for new
 * pcs. */
void jh_profile_pc_ids(struct jh_profile *p, const uint64_t *pcs, size_t n, uint32_t *out);
/* Looks up the pending pcs of the pool (see pool_add). */
void jh_profile_pc_flush(struct jh_profile *p);
/* Starts fetching the index slot that interning this stack will probe
 * first (the reader parses the record's count lines meanwhile). */
void jh_profile_prefetch_stack(const struct jh_profile *p, uint32_t n, uint64_t hash);
/*
 * Symbol lines: added to the batch (the names are not copied: the caller
 * flushes the batch before they change) and stored together when it is
 * full or flushed, so that the index probes of all their parts are fetched
 * from memory at once. Names contain no NUL byte (the input rejects them).
 */
#define JH_SYMBATCH 32
struct jh_symbatch {
	uint64_t pcs[JH_SYMBATCH];
	const char *names[JH_SYMBATCH]; /* the whole names (without split_symbols) */
	size_t len[JH_SYMBATCH];        /* their lengths; with split_symbols, the
					 * number of parts of each line */
	size_t n;
	struct jh_sympart *parts; /* with split_symbols: the lines' parts */
	size_t nparts, parts_alloc;
};
struct jh_sympart {
	const char *s;
	size_t n;
	uint64_t h; /* jh_name_key */
};
void jh_symbatch_init(struct jh_symbatch *b);
void jh_symbatch_flush(struct jh_profile *p, struct jh_symbatch *b);
void jh_symbatch_release(struct jh_symbatch *b);
/* Makes room for n parts in the batch and their index entries (the index
 * does not grow while the batch is stored). */
void jh_symbatch_room(struct jh_profile *p, struct jh_symbatch *b, size_t n);

static inline uint64_t jh_key_mix(uint64_t a, uint64_t b)
{
	__uint128_t r = (__uint128_t)a * b;
	return (uint64_t)r ^ (uint64_t)(r >> 64);
}

/*
 * The symbol index key of a name: its length and five 8-byte samples
 * (start, end, quarters, middle), not a hash of every byte: most names read
 * are equal to one stored already, which memcmp then checks in full; the
 * real hash (jh_hash_str) is computed only for the distinct names stored.
 */
static inline uint64_t jh_name_key(const char *s, size_t n)
{
	uint64_t a = 0, b = 0, c = 0, d = 0, e = 0;
	if (n >= 8) {
		size_t q = (n - 8) / 4;
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(&c, s + 2 * q, 8);
		memcpy(&d, s + q, 8);
		memcpy(&e, s + 3 * q, 8);
	} else {
		memcpy(&a, s, n);
	}
	uint64_t h = jh_key_mix(a ^ n ^ 0xa0761d6478bd642fULL, b ^ 0xe7037ed1a0b428dbULL);
	return jh_key_mix(h ^ c ^ 0x8ebc6af09c88c6e3ULL,
			  d ^ (e << 1 | e >> 63) ^ 0x589965cc75374cc3ULL);
}

/* Keys the part s[0..n) into *part and fetches its index slot. */
static inline void jh_symbatch_part(const struct jh_profile *p, struct jh_sympart *part,
				    const char *s, size_t n)
{
	uint64_t h = jh_name_key(s, n);
	*part = (struct jh_sympart){ s, n, h };
	__builtin_prefetch(&p->sym_index[2 * (h & (p->sym_index_cap - 1))]);
}

/* Adds pc's names base[from..to), which with split_symbols are split at
 * the separators base[seps[i]..seps[i] + 2), i < nseps (ascending, from
 * <= seps[i] <= to - 2, as jh_names_part splits). Inline: the reader's
 * hot loop. */
static inline void jh_symbatch_add(struct jh_profile *p, struct jh_symbatch *b, uint64_t pc,
				   const char *base, size_t from, size_t to, const uint32_t *seps,
				   size_t nseps)
{
	b->pcs[b->n] = pc;
	if (!p->split_symbols) {
		b->names[b->n] = base + from;
		b->len[b->n] = to - from;
	} else {
		size_t all = b->nparts + nseps + 1;
		if (all > b->parts_alloc || 2 * (p->sym_index_nr + all) > p->sym_index_cap)
			jh_symbatch_room(p, b, all);
		struct jh_sympart *part = b->parts + b->nparts;
		for (size_t i = 0; i < nseps; i++) {
			jh_symbatch_part(p, part++, base + from, seps[i] - from);
			from = seps[i] + 2;
		}
		jh_symbatch_part(p, part, base + from, to - from);
		b->nparts = all;
		b->len[b->n] = nseps + 1;
	}
	if (++b->n == JH_SYMBATCH)
		jh_symbatch_flush(p, b);
}
/* Sorts syms by pc; of several lines for one pc the last one is kept. */
void jh_profile_sort_symbols(struct jh_profile *p);

#endif
