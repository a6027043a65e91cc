/*
 * dwarf_read.h - a bounds-checked little-endian cursor for DWARF bytes,
 * shared by the line-program decoder and the .debug_info scanner. Reading
 * past the end sets bad, parks the cursor at the end and yields 0.
 */
#ifndef JEHEAP_DWARF_READ_H
#define JEHEAP_DWARF_READ_H

#include <stddef.h>
#include <stdint.h>

struct jh_cur {
	const unsigned char *p, *end;
	int bad;
};

static inline uint64_t jh_cur_uint(struct jh_cur *c, unsigned n)
{
	if (c->bad || (size_t)(c->end - c->p) < n) {
		c->bad = 1;
		c->p = c->end;
		return 0;
	}
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)c->p[i] << (8 * i);
	c->p += n;
	return v;
}

/*
 * A unit's initial length: 4 bytes, or 0xffffffff then 8 bytes (64-bit
 * DWARF). *offsz gets the format's offset size, 4 or 8.
 */
static inline uint64_t jh_cur_initial_length(struct jh_cur *c, unsigned *offsz)
{
	uint64_t len = jh_cur_uint(c, 4);
	*offsz = 4;
	if (len == 0xffffffff) {
		len = jh_cur_uint(c, 8);
		*offsz = 8;
	}
	return len;
}

/* LEB128; sign extends when is_signed. */
static inline uint64_t jh_cur_leb(struct jh_cur *c, int is_signed)
{
	uint64_t v = 0;
	unsigned shift = 0;
	while (c->p < c->end) {
		unsigned char b = *c->p++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			if (is_signed && shift < 64 && (b & 0x40))
				v |= ~(uint64_t)0 << shift;
			return v;
		}
	}
	c->bad = 1;
	return 0;
}

static inline uint64_t jh_cur_uleb(struct jh_cur *c)
{
	return jh_cur_leb(c, 0);
}

static inline int64_t jh_cur_sleb(struct jh_cur *c)
{
	return (int64_t)jh_cur_leb(c, 1);
}

#endif
