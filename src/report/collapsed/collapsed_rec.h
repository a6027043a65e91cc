/* collapsed_rec.h - the 32-byte record of a location's pieces that
 * --collapsed writes with writev (see struct jh_coll), and its unpacking
 * into iovecs: all four pieces, no branch on their count. */
#ifndef JEHEAP_COLLAPSED_REC_H
#define JEHEAP_COLLAPSED_REC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>

/*
 * A record holds at most JH_COLL_INREC pieces, slot j piece j:
 * address << 17 | length (the address below 2^47, the length below 2^15);
 * the first piece without its separator (that depends on the line), the
 * others with theirs. Bits 15-16 of slot 0: the count - 1; bit 15 of slot
 * 1: the location's last element is inline. Unused slots are zero (but for
 * that bit). A record of slot 0 zero says the pieces are elsewhere (the
 * caller's business: it holds them in the other slots).
 */
#define JH_COLL_INREC 4
#define JH_COLL_REC_SHIFT 17
#define JH_COLL_REC_LEN 0x7fffu

/* Whether a piece s[0..n) fits in a slot. */
static inline int jh_coll_rec_fits(const char *s, size_t n)
{
	return n <= JH_COLL_REC_LEN && (uintptr_t)s >> (64 - JH_COLL_REC_SHIFT) == 0;
}

/* The record of pieces s[j][0..n[j]) (1 to JH_COLL_INREC of them, each
 * one fitting; the first without its separator), the last element inline
 * or not. */
static inline void jh_coll_rec_pack(uint64_t r[JH_COLL_INREC], const char *const *s,
				    const size_t *n, unsigned count, int last_inl)
{
	memset(r, 0, JH_COLL_INREC * sizeof(*r));
	for (unsigned j = 0; j < count; j++)
		r[j] = (uint64_t)(uintptr_t)s[j] << JH_COLL_REC_SHIFT | n[j];
	r[0] |= (uint64_t)(count - 1) << 15;
	r[1] |= (uint64_t)(last_inl != 0) << 15;
}

/* The number of pieces of record r (not one of slot 0 zero). */
static inline unsigned jh_coll_rec_count(const uint64_t *r)
{
	return (unsigned)(r[0] >> 15 & 3) + 1;
}

/* v advanced past record r's pieces (one count fewer computed). */
static inline struct iovec *jh_coll_rec_next(const uint64_t *r, struct iovec *v)
{
	_Static_assert(sizeof(*v) == 16, "bits 15-16 of slot 0 * 16 are 11 bits up");
	return (struct iovec *)((char *)(v + 1) + (r[0] >> 11 & 0x30));
}

/* The separator after record r's last element ("[inline];" or ";"). */
static inline size_t jh_coll_rec_sep(const uint64_t *r)
{
	return 1 + (size_t)(r[1] >> 12 & 8);
}

/* Record r's pieces into v[0..JH_COLL_INREC) (all four written, the
 * first count of them meant), sep the separator before the first. */
static inline void jh_coll_rec_unpack(const uint64_t *r, size_t sep, struct iovec *v)
{
	for (unsigned j = 0; j < JH_COLL_INREC; j++) {
		size_t d = j ? 0 : sep;
		/* in integers: an unused piece is NULL, where even "- 0" is UB */
		v[j].iov_base = (char *)(uintptr_t)((r[j] >> JH_COLL_REC_SHIFT) - d);
		v[j].iov_len = (size_t)(r[j] & JH_COLL_REC_LEN) + d;
	}
}

#endif
