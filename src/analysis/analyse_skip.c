/*
 * analyse_skip.c - which frames are the allocator's (jeprof-behaviour.md §6.6):
 * jeprof 5.3.0's skip list for heap profiles (each name also with a leading
 * '_'), the regexp TCMalloc|^tcmalloc::, plus the names of current jemalloc
 * internals that upstream jeprof added and that appear in jemalloc builds
 * with symbols (ClickHouse: je_malloc_default, imalloc_body, ...); and the
 * test of every location of a model (jh_mark_allocator).
 */
#include "analyse_internal.h"

#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

static const char *const skip_names[] = {
	/* jeprof 5.3.0 */
	"calloc", "cfree", "malloc", "newImpl", "void* newImpl", "free", "memalign",
	"posix_memalign", "aligned_alloc", "pvalloc", "valloc", "realloc", "mallocx", "rallocx",
	"xallocx", "dallocx", "sdallocx", "sdallocx_noflags", "tc_calloc", "tc_cfree", "tc_malloc",
	"tc_free", "tc_memalign", "tc_posix_memalign", "tc_pvalloc", "tc_valloc", "tc_realloc",
	"tc_new", "tc_delete", "tc_newarray", "tc_deletearray", "tc_new_nothrow",
	"tc_newarray_nothrow", "do_malloc", "::do_malloc", "::do_malloc_or_cpp_alloc",
	"DoSampledAllocation", "simple_alloc::allocate", "__malloc_alloc_template::allocate",
	"__builtin_delete", "__builtin_new", "__builtin_vec_delete", "__builtin_vec_new",
	"operator new", "operator new[]", "malloc_zone_malloc", "malloc_zone_calloc",
	"malloc_zone_valloc", "malloc_zone_realloc", "malloc_zone_memalign", "malloc_zone_free",
	"__start_google_malloc", "__stop_google_malloc", "__start_malloc_hook",
	"__stop_malloc_hook",
	/* upstream jeprof and current jemalloc internals */
	"je_malloc_default", "fallbackNewImpl", "void* fallbackNewImpl", "fallback_impl",
	"void* fallback_impl", "imalloc", "imalloc_body", "prof_alloc_prep", "prof_backtrace_impl",
	"je_prof_backtrace", "prof_backtrace", "je_prof_tctx_create", "prof_tctx_create",
	"irallocx_prof", "do_rallocx", "ixallocx_prof", "je_malloc", "je_calloc", "je_realloc",
	"je_free", "je_mallocx", "je_rallocx", "je_xallocx", "je_posix_memalign",
	"je_aligned_alloc", "je_memalign", "je_valloc", "je_pvalloc", "je_sdallocx",
	"je_dallocx", "je_calloc_default", "je_realloc_default",
};

const char *const *jh_allocator_names(size_t *n)
{
	*n = JH_ARRAY_SIZE(skip_names);
	return skip_names;
}

/*
 * jh_may_be_allocator_name: the allocator test without the short name.
 *
 * ShortFunctionName only deletes characters of the full name F: groups
 * "(...)" (each with the "\s*const" after it, if any), then groups "<...>",
 * then a prefix ending with whitespace. So the short name S is made of
 * "pieces", substrings of F, separated in F by deleted regions. A deleted
 * region (a maximal run of deleted characters, the prefix aside) is a union
 * of matches; it starts where its first match starts, with '(' or '<', and
 * ends where its last match ends, with ')', '>' or the 't' of an eaten
 * "const". That "const" is in F as is, unless groups inside it were
 * deleted first: then its characters before the first such group, a prefix
 * of "const", are right before a '(' (const_made), and each group ends
 * with ')' or the 't' of a "const" it ate. Hence:
 *  (a) S's last piece ends at F's end or right before an '(' or '<' of F;
 *  (b) every other piece starts right after F's ')' or '>', or after a 't'
 *      that ends "const" in F or, if const_made, ends "const" with a ')'
 *      or 't' of F in place of one of its other characters (region_end);
 *  (c) S's first character is F's first, or follows whitespace (the last
 *      one the final step deleted) or what (b) says (start_ok).
 * A listed name N (or "_" N) has no brackets. If S is one, S's last piece
 * is a nonempty suffix of N lying in F before an '(', '<' or the end, and
 * either it is all of S (then (c) holds before N or before its '_') or it
 * starts as (b) says: walking F backwards from each such place through a
 * trie of the reversed names finds it (tail_may_match).
 * If S contains "TCMalloc" or starts with "tcmalloc::", the first piece of
 * that string is all of it (then F holds "cm" in some case) or a proper
 * prefix of it ending right before an '(' or '<' of F (for "tcmalloc::"
 * preceded as (c) says), and its next character starts a piece somewhere
 * in F (tc_piece_before).
 * Each test only lets names through: when all fail, jh_is_allocator_name
 * of the short name is 0. tests/unit/test_alloc_prefilter.c checks this
 * on random names against the short name itself.
 */

/* The trie of the reversed listed names: tr_next[node * tr_ncls + class]
 * is the child (0 = none; node 0 is the root), tr_end[node] = a whole name. */
static uint8_t tr_cls[256]; /* byte -> class, 0 = in no name */
static size_t tr_ncls;
static uint16_t *tr_next;
static uint8_t *tr_end;

/* The patterns of the TCMalloc rule; tc_last[c] has bit 16 * i + k when
 * a proper prefix of length k of tc_pat[i] ends with c. */
static const char *const tc_pat[2] = {"TCMalloc", "tcmalloc::"};
static uint32_t tc_last[256];

/* Bit b of tr_pair[a][b / 8]: an '(' or '<' after "ab" may pass
 * open_may_match (its first steps, made once for all names: a clear bit
 * means open_may_match would say 0 there). */
static uint8_t tr_pair[256][32];

static void pair_set(unsigned a, unsigned b)
{
	tr_pair[a][b / 8] |= (uint8_t)(1u << (b % 8));
}

static int pair_may(const char *s, size_t q)
{
	unsigned a = (unsigned char)s[q - 2], b = (unsigned char)s[q - 1];
	return tr_pair[a][b / 8] >> (b % 8) & 1;
}

/* Perl's \s */
static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static void build_trie(void)
{
	size_t total = 1;
	for (size_t i = 0; i < JH_ARRAY_SIZE(skip_names); i++)
		for (const char *p = skip_names[i]; *p; p++, total++)
			if (!tr_cls[(unsigned char)*p])
				tr_cls[(unsigned char)*p] = (uint8_t)++tr_ncls;
	tr_ncls++;
	tr_next = xcalloc(jh_st_mult(total, tr_ncls), sizeof(*tr_next));
	tr_end = xcalloc(total, 1);
	size_t nodes = 1;
	for (size_t i = 0; i < JH_ARRAY_SIZE(skip_names); i++) {
		size_t node = 0;
		for (size_t k = strlen(skip_names[i]); k-- > 0;) {
			uint16_t *next = &tr_next[node * tr_ncls + tr_cls[(unsigned char)skip_names[i][k]]];
			if (!*next)
				*next = (uint16_t)nodes++;
			node = *next;
		}
		tr_end[node] = 1;
	}
	for (unsigned i = 0; i < 2; i++)
		for (size_t k = 1; k < strlen(tc_pat[i]); k++)
			tc_last[(unsigned char)tc_pat[i][k - 1]] |= 1u << (16 * i + k);
	/* the pairs: tail_may_match's first two steps, tc_piece_before's
	 * memcmp and, for one character, start_ok */
	for (unsigned b = 0; b < 256; b++) {
		size_t one = tr_cls[b] ? tr_next[tr_cls[b]] : 0;
		for (unsigned a = 0; a < 256; a++) {
			int end = a == ')' || a == '>' || a == 't';
			if (one && (tr_end[one] || end || (tr_cls[a] && tr_next[one * tr_ncls + tr_cls[a]])))
				pair_set(a, b);
			if (b == (unsigned char)tc_pat[0][0] ||
			    (b == (unsigned char)tc_pat[1][0] && (end || is_space((char)a))))
				pair_set(a, b);
		}
	}
	for (unsigned i = 0; i < 2; i++)
		for (size_t k = 2; k < strlen(tc_pat[i]); k++)
			pair_set((unsigned char)tc_pat[i][k - 2], (unsigned char)tc_pat[i][k - 1]);
}

/* Whether s[0..n) is a listed name or '_' and one (Mach-O prefix, as
 * jeprof): the trie walked from its end. */
static int listed(const char *s, size_t n)
{
	size_t node = 0;
	for (size_t p = n; p-- > 0;) {
		size_t c = tr_cls[(unsigned char)s[p]];
		if (!c || !(node = tr_next[node * tr_ncls + c]))
			return 0;
		if (tr_end[node] && (p == 0 || (p == 1 && s[0] == '_')))
			return 1;
	}
	return 0;
}

int jh_is_allocator_name(const char *shortname)
{
	if (!tr_next)
		build_trie(); /* single-threaded analysis; lives until exit */
	return listed(shortname, strlen(shortname)) || strstr(shortname, "TCMalloc") ||
	       !strncmp(shortname, "tcmalloc::", 10);
}

struct prescan {
	const char *s;
	size_t n;
	int made;           /* const_made(s), -1 = not known yet */
	int8_t piece[2][16]; /* piece_somewhere(i, k), -1 = not known yet */
};

/* Whether a group deleted inside a "const" can have made it: a prefix of
 * "const" right before a '('. */
static int const_made(struct prescan *sc)
{
	if (sc->made < 0) {
		const char *s = sc->s;
		sc->made = 0;
		for (const char *p = strchr(s, '('); p && !sc->made; p = strchr(p + 1, '('))
			for (size_t k = 1; k <= 4 && k <= (size_t)(p - s); k++)
				if (!memcmp(p - k, "const", k))
					sc->made = 1;
	}
	return sc->made;
}

/* Whether s[p - 1] (p > 0) can end a deleted region: (b). */
static inline int region_end(struct prescan *sc, size_t p)
{
	const char *s = sc->s;
	if (s[p - 1] == ')' || s[p - 1] == '>')
		return 1;
	if (s[p - 1] != 't')
		return 0;
	/* "cons" backwards before it; a deleted group there ends with ')' or 't' */
	for (size_t k = 2; k <= 5; k++) {
		if (k > p)
			return 0;
		char b = s[p - k];
		if ((b == ')' || b == 't') && const_made(sc))
			return 1;
		if (b != "const"[5 - k])
			return 0;
	}
	return 1;
}

/* Whether S can start at s[p]: (c). */
static int start_ok(struct prescan *sc, size_t p)
{
	return !p || is_space(sc->s[p - 1]) || region_end(sc, p);
}

/* Whether S's last piece can end at s[j] and S be a listed name: (a). */
static int tail_may_match(struct prescan *sc, size_t j)
{
	const char *s = sc->s;
	size_t node = 0;
	for (size_t p = j + 1; p-- > 0;) {
		size_t c = tr_cls[(unsigned char)s[p]];
		if (!c || !(node = tr_next[node * tr_ncls + c]))
			return 0;
		/* S is the name, or '_' and it, in one piece */
		if (tr_end[node] && (start_ok(sc, p) || (s[p - 1] == '_' && start_ok(sc, p - 1))))
			return 1;
		if (p && region_end(sc, p)) /* the last of several pieces */
			return 1;
	}
	return 0;
}

/* Whether a piece can start with tc_pat[i][k]: it follows a region's end. */
static int piece_somewhere(struct prescan *sc, unsigned i, size_t k)
{
	if (sc->piece[i][k] < 0) {
		const char *s = sc->s;
		sc->piece[i][k] = 0;
		for (const char *p = memchr(s, tc_pat[i][k], sc->n); p && !sc->piece[i][k];
		     p = memchr(p + 1, tc_pat[i][k], sc->n - (size_t)(p + 1 - s)))
			sc->piece[i][k] = p > s && region_end(sc, (size_t)(p - s));
	}
	return sc->piece[i][k];
}

/* Whether the first piece of "TCMalloc" or of a "tcmalloc::" that starts S
 * can end at s[q - 1] (s[q] is an '(' or '<'). */
static int tc_piece_before(struct prescan *sc, size_t q)
{
	const char *s = sc->s;
	for (uint32_t m = tc_last[(unsigned char)s[q - 1]]; m; m &= m - 1) {
		unsigned bit = (unsigned)__builtin_ctz(m), i = bit / 16;
		size_t k = bit % 16;
		if (k > q)
			continue;
		size_t same = 0;
		while (same < k && s[q - k + same] == tc_pat[i][same])
			same++;
		if (same == k && (!i || start_ok(sc, q - k)) && piece_somewhere(sc, i, k))
			return 1;
	}
	return 0;
}

/* The tests at an '(' or '<' at s[q], q > 0. */
static int open_may_match(struct prescan *sc, size_t q)
{
	return tail_may_match(sc, q - 1) || tc_piece_before(sc, q);
}

static int is_cm(char a, char b)
{
	return (a | 0x20) == 'c' && (b | 0x20) == 'm';
}

/* The tests at the '(' and '<' at base + the bits of open (base >= 2). */
static inline __attribute__((always_inline)) int open_bits(struct prescan *sc, uint64_t open, size_t base)
{
	for (; open; open &= open - 1) {
		size_t q = base + (size_t)__builtin_ctzll(open);
		if (pair_may(sc->s, q) && open_may_match(sc, q))
			return 1;
	}
	return 0;
}

#ifdef __SSE2__
/* The '(' and '<' among s[q .. q + 16) as bits; "cm" in some case at
 * s[q - 1] ORed into *cm. */
static inline __attribute__((always_inline)) unsigned open_block(const char *s, size_t q,
								 __m128i *cm)
{
	const __m128i lower = _mm_set1_epi8(0x20);
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + q));
	__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + q - 1));
	*cm = _mm_or_si128(*cm, _mm_and_si128(
				_mm_cmpeq_epi8(_mm_or_si128(b, lower), _mm_set1_epi8('c')),
				_mm_cmpeq_epi8(_mm_or_si128(v, lower), _mm_set1_epi8('m'))));
	return (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('(')),
							_mm_cmpeq_epi8(v, _mm_set1_epi8('<'))));
}
#endif

int jh_may_be_allocator_name(const char *full)
{
	if (!tr_next)
		build_trie(); /* single-threaded analysis; lives until exit */
	struct prescan sc = {.s = full, .n = strlen(full), .made = -1};
	memset(sc.piece, -1, sizeof(sc.piece));
	size_t n = sc.n, q = 2;
	if (n < 2)
		return n && tail_may_match(&sc, 0);
	int cm = is_cm(full[0], full[1]);
	if ((full[1] == '(' || full[1] == '<') && open_may_match(&sc, 1))
		return 1;
#ifdef __SSE2__
	if (n >= 18) {
		/* 64 bytes at a time, then 16, then the last 16 (again in part:
		 * the tests may run twice on a bracket); the "cm" bits become
		 * a scalar before the tests' calls */
		for (; q + 64 <= n; q += 64) {
			__m128i cmv = _mm_setzero_si128();
			uint64_t open = 0;
			for (unsigned k = 0; k < 4; k++)
				open |= (uint64_t)open_block(full, q + 16 * k, &cmv) << (16 * k);
			cm |= _mm_movemask_epi8(cmv);
			if (open_bits(&sc, open, q))
				return 1;
		}
		for (size_t last = 0; !last;) {
			if (q + 16 > n) { /* the last 16 bytes */
				q = n - 16;
				last = 1;
			}
			__m128i cmv = _mm_setzero_si128();
			unsigned open = open_block(full, q, &cmv);
			cm |= _mm_movemask_epi8(cmv);
			if (open_bits(&sc, open, q))
				return 1;
			q += 16;
			last |= q == n;
		}
		q = n;
	}
#endif
	for (; q < n; q++) {
		cm |= is_cm(full[q - 1], full[q]);
		if ((full[q] == '(' || full[q] == '<') && pair_may(full, q) && open_may_match(&sc, q))
			return 1;
	}
	return cm || tail_may_match(&sc, n - 1);
}

/* The memo of location l's outermost frame, UINT32_MAX for none. */
static uint32_t outer_memo(const struct jh_graph_priv *gp, const struct jh_location *l)
{
	return l->nframes ? gp->fid[l->first] : UINT32_MAX;
}

/* Whether memo fm's function func is an allocator entry point. With the
 * keys to come (keep_shorts), its short name is made and kept; else only
 * when the prefilter lets it through (2 names in 49k on the bench file),
 * and not interned, without reading the memo at all. */
static int memo_alloc(struct jh_graph_priv *gp, struct jh_fmemo *fm, const char *func)
{
	if (gp->keep_shorts) {
		if (!fm->shrt)
			fm->shrt = jh_namer_short(&gp->namer, func);
		return jh_is_allocator_name(fm->shrt);
	}
	if (!jh_may_be_allocator_name(func))
		return 0;
	jh_sb_reset(&gp->sb2);
	jh_short_function_name(&gp->sb2, func);
	return jh_is_allocator_name(gp->sb2.buf);
}

/*
 * The allocator test of every location (removed with its callees, §6.6):
 * the memos to test, in the order their locations come, with their names
 * (from the frames, read in order: no memo is read for it), then the
 * tests (each reads a name somewhere in memory: prefetched well ahead),
 * then the locations' flags from a byte per memo (add_stack asks in
 * stack order, all over memory).
 */
void jh_mark_allocator(struct jh_graph_priv *gp, const struct jh_model *m, uint8_t flag)
{
	enum { ASKED = 1, ALLOC = 2 };
	struct ask {
		const char *func;
		uint32_t memo;
	} *todo = NULL;
	uint8_t *st = xcalloc(gp->nfm ? gp->nfm : 1, 1);
	size_t ntodo = 0, alloc = 0;
	for (size_t i = 0; i < m->nlocs; i++) {
		const struct jh_location *l = &m->locs[i];
		uint32_t k = outer_memo(gp, l);
		if (l->allocator || k == UINT32_MAX || st[k])
			continue;
		st[k] = ASKED;
		JH_GROW(todo, ntodo + 1, alloc);
		todo[ntodo++] = (struct ask){m->frames.items[l->first].func, k};
	}
	for (size_t j = 0; j < ntodo; j++) {
		if (j + 16 < ntodo && gp->keep_shorts)
			__builtin_prefetch(&gp->fm[todo[j + 16].memo]);
		if (j + 8 < ntodo) /* its name, to be read */
			for (int x = 0; x < 4; x++)
				__builtin_prefetch(todo[j + 8].func + 64 * x);
		if (memo_alloc(gp, &gp->fm[todo[j].memo], todo[j].func))
			st[todo[j].memo] = ALLOC;
	}
	for (size_t i = 0; i < m->nlocs; i++) {
		const struct jh_location *l = &m->locs[i];
		uint32_t k = outer_memo(gp, l);
		gp->lflags[i] = l->allocator || (k != UINT32_MAX && st[k] == ALLOC) ? flag : 0;
	}
	free(todo);
	free(st);
}
