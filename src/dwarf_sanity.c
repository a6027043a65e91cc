/* dwarf_sanity.c - see dwarf_sanity.h. */
#include "dwarf_sanity.h"

static uint64_t rd(const unsigned char *p, int n, int le)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[le ? i : n - 1 - i] << (8 * i);
	return v;
}

int jh_dwarf_units_fit(const unsigned char *data, uint64_t size, int little_endian)
{
	uint64_t off = 0;
	if (!data)
		return size == 0;
	while (off < size) {
		if (size - off < 4)
			return 0;
		uint64_t len = rd(data + off, 4, little_endian);
		off += 4;
		if (len == 0xffffffffu) {
			if (size - off < 8)
				return 0;
			len = rd(data + off, 8, little_endian);
			off += 8;
		} else if (len >= 0xfffffff0u) {
			return 0; /* reserved initial-length values */
		}
		if (len < 2 || len > size - off)
			return 0;
		if (rd(data + off, 2, little_endian) != 5)
			return 0;
		off += len;
	}
	return 1;
}
