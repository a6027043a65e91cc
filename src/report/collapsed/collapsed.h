/* collapsed.h - private parts of --collapsed (report_collapsed.c writes the
 * lines, collapsed_sort.c orders them). */
#ifndef JEHEAP_COLLAPSED_H
#define JEHEAP_COLLAPSED_H

#include "collapsed_rec.h"
#include "jeheap/report.h"

#include <sys/uio.h>

/*
 * An element of a line: a frame's name s[0..len), and whether "[inline]"
 * follows it. Its text, as lines are ordered, is the name, "[inline]" when
 * inl, then ';'. Every element's s is preceded by JH_NAME_PREFIX (names of
 * the model, see jh_intern, or copies made so), so that the pieces written
 * are the elements with their separators before them: "name" first in a
 * line, then ";name" or "[inline];name" (after an inline element); a line
 * that ends with an inline element gets "[inline]" before its count.
 */
struct jh_coll_str {
	const char *s;
	size_t len;
	int inl;
};

/*
 * A line is its locations' elements, root first. The elements of location l
 * are [eoff[l], eoff[l + 1]), each known by the rank of its text; rstr
 * holds the element of each rank.
 *
 * write_direct reads the elements from records (made by it, in memory the
 * sort is done with: only it needs them, and memory first touched is
 * costly): a location's pieces, each with its separator but the first
 * (that one depends on the line), see collapsed_rec.h; or, when they do
 * not fit (more than four, long names), the elements in ovf: then the
 * record is {0, index in ovf, count}.
 */
struct jh_coll {
	const struct jh_graph *g;
	uint32_t *eoff; /* per location: its elements are [eoff[l], eoff[l+1]),
	                     * at least one for a used location */
	uint32_t *rk;   /* per element: byte order of its text among all
	                     * (equal texts, equal ranks) */
	uint32_t nranks;
	struct jh_coll_str *rstr;       /* per rank */
	char *counts;                   /* per stack: " count\n" or " before after\n" */
	size_t *coff;                   /* per stack, nstacks + 1 */
	void *scratch;                  /* for ranking, sorting, then rec (jh_coll_scratch) */
	void *scratch_block;            /* where it is */
	uint64_t (*rec)[JH_COLL_INREC]; /* per location: its elements (aligned) */
	struct jh_coll_str *ovf;
};

/* Element j of location l (j below its element count). */
static inline const struct jh_coll_str *jh_coll_elem(const struct jh_coll *c, uint32_t l,
						     uint32_t j)
{
	return &c->rstr[c->rk[c->eoff[l] + j]];
}

/* The length of the separator before an element that follows one whose
 * inl is inl ("[inline];" or ";"). */
static inline size_t jh_coll_sep(int inl)
{
	return inl ? JH_NAME_PAD : 1;
}

/*
 * Scratch memory for ranking nel elements and sorting nstacks stacks
 * (bytes, 16-byte aligned): one block for both (and the records after),
 * as memory first touched is costly.
 */
size_t jh_coll_scratch(size_t nel, size_t nstacks);

/* Ranks el[0..n) by their texts (equal texts share a rank); *nranks: the
 * number of ranks. Caller frees. */
uint32_t *jh_coll_rank(const struct jh_coll_str *el, size_t n, uint32_t *nranks, void *scratch);

/* The stacks of c->g in line order. Caller frees. */
uint32_t *jh_coll_sort(const struct jh_coll *c, void *scratch);

/*
 * c made for g's stacks (their elements, with records when recs, and
 * their counts, in counts; strings made safe in strs) and the stacks in
 * line order (caller frees; --flamegraph reads them too). jh_coll_close
 * frees c's arrays (not strs nor counts).
 */
uint32_t *jh_coll_open(struct jh_coll *c, const struct jh_graph *g, struct jh_arena *strs,
		       struct jh_sb *counts, int recs);
void jh_coll_close(struct jh_coll *c);

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
/* What follows a line's last name when it is inline (8 bytes written). */
extern const char jh_coll_inline_mark[];
/* Puts stack's line "root;...;leaf count\n" (" count\n" without names). */
void jh_coll_line(const struct jh_coll *c, uint32_t stack, struct jh_coll_sink *k);

#endif
