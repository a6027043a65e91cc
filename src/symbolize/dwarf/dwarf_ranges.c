/*
 * dwarf_ranges.c - .debug_rnglists / .debug_ranges / .debug_addr readers
 * (dwarf_ranges.h). Little-endian.
 */
#include "dwarf_ranges.h"

#include "dwarf_read.h"

int jh_dwarf_addrx(const struct jh_dwarf_addrctx *a, uint64_t idx, uint64_t *out)
{
	if (!a->addr || (a->addr_size != 4 && a->addr_size != 8) || idx > a->addr_size_sec)
		return -1;
	uint64_t off = a->addr_base + idx * a->addr_size;
	if (off < a->addr_base || off > a->addr_size_sec || a->addr_size_sec - off < a->addr_size)
		return -1;
	struct jh_cur c = { a->addr + off, a->addr + a->addr_size_sec, 0 };
	*out = jh_cur_uint(&c, a->addr_size);
	return c.bad ? -1 : 0;
}

int jh_rnglistx_offset(const unsigned char *sec, uint64_t size, uint64_t base, uint64_t idx,
		       unsigned offsz, uint64_t *off)
{
	if (!sec || (offsz != 4 && offsz != 8) || base > size || idx > size / offsz)
		return -1;
	uint64_t at = base + idx * offsz;
	if (at > size || size - at < offsz)
		return -1;
	struct jh_cur c = { sec + at, sec + size, 0 };
	uint64_t rel = jh_cur_uint(&c, offsz);
	if (c.bad || rel > size - base)
		return -1;
	*off = base + rel;
	return 0;
}

int jh_rnglist_read(const unsigned char *sec, uint64_t size, uint64_t off,
		    const struct jh_dwarf_addrctx *a, uint64_t base, jh_range_fn fn, void *ctx)
{
	if (!sec || off >= size)
		return -1;
	struct jh_cur c = { sec + off, sec + size, 0 };
	unsigned as = a->addr_size;
	for (int guard = 0; guard < (1 << 20); guard++) {
		unsigned kind = (unsigned)jh_cur_uint(&c, 1);
		uint64_t x, y, lo, hi;
		if (c.bad)
			return -1;
		switch (kind) {
		case 0: /* DW_RLE_end_of_list */ return 0;
		case 1: /* base_addressx */
			if (jh_dwarf_addrx(a, jh_cur_uleb(&c), &base) != 0)
				return -1;
			break;
		case 2: /* startx_endx */
			x = jh_cur_uleb(&c), y = jh_cur_uleb(&c);
			if (jh_dwarf_addrx(a, x, &lo) != 0 || jh_dwarf_addrx(a, y, &hi) != 0)
				return -1;
			fn(ctx, lo, hi);
			break;
		case 3: /* startx_length */
			x = jh_cur_uleb(&c), y = jh_cur_uleb(&c);
			if (jh_dwarf_addrx(a, x, &lo) != 0)
				return -1;
			fn(ctx, lo, lo + y);
			break;
		case 4: /* offset_pair */
			x = jh_cur_uleb(&c), y = jh_cur_uleb(&c);
			fn(ctx, base + x, base + y);
			break;
		case 5: /* base_address */ base = jh_cur_uint(&c, as); break;
		case 6: /* start_end */
			x = jh_cur_uint(&c, as), y = jh_cur_uint(&c, as);
			fn(ctx, x, y);
			break;
		case 7: /* start_length */
			x = jh_cur_uint(&c, as), y = jh_cur_uleb(&c);
			fn(ctx, x, x + y);
			break;
		default: return -1;
		}
		if (c.bad)
			return -1;
	}
	return -1;
}

int jh_ranges_read(const unsigned char *sec, uint64_t size, uint64_t off, unsigned addr_size,
		   uint64_t base, jh_range_fn fn, void *ctx)
{
	if (!sec || off >= size || (addr_size != 4 && addr_size != 8))
		return -1;
	uint64_t all = addr_size == 8 ? UINT64_MAX : UINT32_MAX;
	struct jh_cur c = { sec + off, sec + size, 0 };
	for (;;) {
		uint64_t x = jh_cur_uint(&c, addr_size), y = jh_cur_uint(&c, addr_size);
		if (c.bad)
			return -1;
		if (x == 0 && y == 0)
			return 0;
		if (x == all)
			base = y; /* base address selection */
		else
			fn(ctx, base + x, base + y);
	}
}
