/*
 * inflate.h - zlib and zstd inflation of compressed ELF sections for
 * sections.c: one-shot into a buffer that grows as the data comes, and the
 * zlib steps of its streamed mode.
 */
#ifndef JEHEAP_INFLATE_H
#define JEHEAP_INFLATE_H

#include <stdint.h>
#include <zlib.h>
#include <zstd.h>

struct jh_packed {
	const unsigned char *packed; /* compressed payload (after the header) */
	uint64_t packed_size;
	uint64_t size; /* the size it must inflate to, exactly */
	int zstd;      /* else zlib */
};

/*
 * Inflates pk into a buffer that starts at 4 x the compressed size and
 * doubles as the data comes (a size a header announces is never allocated
 * before the data proves it). Returns the malloc'd buffer when exactly
 * pk->size bytes came out, else NULL.
 */
unsigned char *jh_inflate_grow(const struct jh_packed *pk);

/* One zstd frame (or more) into out[0, out_n): 0 when exactly out_n came out. */
int jh_zstd_once(unsigned char *out, uint64_t out_n, const unsigned char *in, uint64_t in_n);

/* The next piece of *left that fits zlib's 32-bit counts (at most 1 GB). */
uInt jh_take_1g(uint64_t *left);
/*
 * Checks the zlib header of in[0, in_n) and starts a raw-deflate inflate
 * after it; *in_left is the input not yet handed to zlib. 0 or -1.
 */
int jh_zlib_begin(z_stream *zs, const unsigned char *in, uint64_t in_n, uint64_t *in_left);
/* One inflate call, handing zlib the next input piece first; a pause is Z_OK. */
int jh_zlib_step(z_stream *zs, uint64_t *in_left, uint64_t out_left);

#endif
