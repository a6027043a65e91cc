/* collapsed.h - private parts of --collapsed (report_collapsed.c writes the
 * lines, collapsed_sort.c orders them). */
#ifndef JEHEAP_COLLAPSED_H
#define JEHEAP_COLLAPSED_H

#include "report.h"

#include <sys/uio.h>

/* A string and its length (without the ';' that follows it). */
struct jh_coll_str {
	const char *s;
	size_t len;
};

/*
 * A line is its locations' elements (frame names), root first, each
 * followed by ';' but the last, which is followed by the count piece.
 * Every element is a piece (the name and its ';', held once per distinct
 * string), so that a line is written with writev. The elements of
 * location l are [eoff[l], eoff[l + 1]), each known by the rank of its
 * string; rstr holds the string of each rank.
 *
 * write_direct reads the pieces from records (made by it, in memory the
 * sort is done with: only it needs them, and memory first touched is
 * costly): a location's pieces packed (the string's address << 16 | its
 * length with the ';'; zero after the last), or, when they do not fit (more
 * than four, long names), in ovf: then the record is {(index in ovf + 1)
 * << 16, count}.
 */
#define JH_COLL_INREC 4
struct jh_coll {
	const struct jh_graph *g;
	uint32_t *eoff;     /* per location: its elements are [eoff[l], eoff[l+1]),
	                     * at least one for a used location */
	uint32_t *rk;       /* per element: byte order of its "name;" among all
	                     * (equal strings, equal ranks) */
	uint32_t nranks;
	struct jh_coll_str *rstr; /* per rank */
	char *counts;       /* per stack: " count\n" or " before after\n" */
	size_t *coff;       /* per stack, nstacks + 1 */
	void *scratch;      /* for ranking, sorting, then rec (jh_coll_scratch) */
	void *scratch_block; /* where it is */
	uint64_t (*rec)[JH_COLL_INREC]; /* per location: its pieces (aligned) */
	struct iovec *ovf;
};

/* Piece j of location l (j below its element count). */
static inline struct iovec jh_coll_piece(const struct jh_coll *c, uint32_t l, uint32_t j)
{
	const struct jh_coll_str *t = &c->rstr[c->rk[c->eoff[l] + j]];
	return (struct iovec){(void *)(uintptr_t)t->s, t->len + 1};
}

/*
 * Scratch memory for ranking nel elements and sorting nstacks stacks
 * (bytes, 16-byte aligned): one block for both (and the records after),
 * as memory first touched is costly.
 */
size_t jh_coll_scratch(size_t nel, size_t nstacks);

/* Ranks el[0..n) by the bytes of "s;" (s[len] is ';'; equal strings share
 * a rank); *nranks: the number of ranks. Caller frees. */
uint32_t *jh_coll_rank(const struct jh_coll_str *el, size_t n, uint32_t *nranks, void *scratch);

/* The stacks of c->g in line order. Caller frees. */
uint32_t *jh_coll_sort(const struct jh_coll *c, void *scratch);

/* Where jh_coll_line puts a line: a buffer written to out when full, or a
 * string. */
struct jh_coll_sink {
	enum { JH_SINK_BUF, JH_SINK_SB } kind;
	FILE *out;
	char *buf;
	size_t len, cap;
	struct jh_sb *sb;
};
void jh_coll_put(struct jh_coll_sink *k, const char *s, size_t n);
/* Puts stack's line "root;...;leaf count\n" (" count\n" without names). */
void jh_coll_line(const struct jh_coll *c, uint32_t stack, struct jh_coll_sink *k);

#endif
