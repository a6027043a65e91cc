/*
 * idtab.h - a hash index over ids 0..n-1 whose keys live elsewhere (the
 * caller's arrays): slots hold id+1, the table keeps each id's hash and asks
 * the caller's eq() to compare keys. Used to deduplicate locations and stacks
 * without allocating per key.
 */
#ifndef JEHEAP_IDTAB_H
#define JEHEAP_IDTAB_H

#include "jeheap/base.h"

struct jh_idtab {
	uint32_t *slots;  /* pairs: id + 1 (0 = empty), the id's hash >> 32 */
	size_t cap;       /* power of two */
	uint64_t *hashes; /* per id */
	size_t nr, alloc;
};

typedef int (*jh_idtab_eq)(const void *ctx, uint32_t id);

void jh_idtab_init(struct jh_idtab *t);
void jh_idtab_release(struct jh_idtab *t);
/* Returns the id whose key equals the probe (hash h, eq(ctx, id) true), or
 * adds the next id (t->nr) and sets *added. */
uint32_t jh_idtab_put(struct jh_idtab *t, uint64_t h, jh_idtab_eq eq, const void *ctx, int *added);
/* Makes room for n ids in all (no rehash until then). */
void jh_idtab_reserve(struct jh_idtab *t, size_t n);

/* Sequences of uint32 stored as (off, len) in a pool the caller owns. */
struct jh_seqset {
	struct jh_idtab t;
	size_t *offs;
	uint32_t *lens;
	size_t alloc;
};
void jh_seqset_init(struct jh_seqset *s);
void jh_seqset_release(struct jh_seqset *s);
/*
 * The caller has appended the probe sequence at pool[off .. off+len) (the
 * end of its pool). Returns the id of an equal sequence already in the set
 * (the caller then drops its copy), or the new id (*added = 1).
 */
uint32_t jh_seqset_put(struct jh_seqset *s, const uint32_t *pool, size_t off, uint32_t len,
		       int *added);

#endif
