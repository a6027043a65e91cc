/*
 * inflate.c - zlib and zstd inflation of compressed ELF sections
 * (inflate.h).
 */
#include "inflate.h"

#include "jeheap/base.h"

#include <string.h>

/* Takes the next piece of *left that fits a 32-bit zlib count (at most 1 GB). */
uInt jh_take_1g(uint64_t *left)
{
	uInt n = *left > (1u << 30) ? (1u << 30) : (uInt)*left;
	*left -= n;
	return n;
}

/*
 * Checks the zlib header (deflate, no preset dictionary) of in[0, in_n)
 * and starts a raw-deflate inflate after it: the Adler-32 trailer is not
 * verified (about 10% of inflate time on a big .debug_info); the exact
 * uncompressed size is, and every reader of the bytes checks its bounds.
 * *in_left is the input not yet handed to zlib (see zlib_step).
 */
int jh_zlib_begin(z_stream *zs, const unsigned char *in, uint64_t in_n, uint64_t *in_left)
{
	memset(zs, 0, sizeof(*zs));
	if (in_n < 2 || (in[0] & 0x0f) != 8 || ((unsigned)in[0] << 8 | in[1]) % 31 != 0 ||
	    (in[1] & 0x20))
		return -1;
	if (inflateInit2(zs, -15) != Z_OK)
		return -1;
	zs->next_in = (unsigned char *)in + 2;
	*in_left = in_n - 2;
	return 0;
}

/*
 * One inflate call, first handing zlib the next input piece once it has
 * taken the last. A Z_BUF_ERROR while input and output room remain
 * (avail_out, or out_left not yet handed over) is only a pause: Z_OK.
 */
int jh_zlib_step(z_stream *zs, uint64_t *in_left, uint64_t out_left)
{
	if (zs->avail_in == 0 && *in_left)
		zs->avail_in = jh_take_1g(in_left);
	int rc = inflate(zs, Z_NO_FLUSH);
	if (rc == Z_BUF_ERROR && (zs->avail_in || *in_left) && (zs->avail_out || out_left))
		rc = Z_OK;
	return rc;
}

/* One-shot zstd frame into out[0, out_n): the size must come out exact. */
int jh_zstd_once(unsigned char *out, uint64_t out_n, const unsigned char *in, uint64_t in_n)
{
	size_t r = ZSTD_decompress(out, out_n, in, in_n);
	return !ZSTD_isError(r) && r == out_n ? 0 : -1;
}

/* Room for more output: doubles *cap (at least 1 MiB), never past size. */
static unsigned char *grow(unsigned char *buf, uint64_t *cap, uint64_t size)
{
	uint64_t c = *cap * 2 < (1u << 20) ? (1u << 20) : *cap * 2;
	*cap = c < size ? c : size;
	return xrealloc(buf, *cap ? *cap : 1);
}

/* zstd, streamed into a buffer that grows as data comes (see inflate_grow). */
static unsigned char *grow_zstd(const struct jh_packed *pk, unsigned char *buf, uint64_t cap,
				uint64_t *done)
{
	ZSTD_DCtx *dc = ZSTD_createDCtx();
	*done = UINT64_MAX; /* failed, until the frame ends */
	if (!dc)
		return buf;
	ZSTD_DCtx_setParameter(dc, ZSTD_d_windowLogMax, 27);
	ZSTD_inBuffer ib = { pk->packed, pk->packed_size, 0 };
	size_t r = 1;
	*done = 0;
	while (r != 0) {
		if (*done == cap && cap < pk->size)
			buf = grow(buf, &cap, pk->size);
		ZSTD_outBuffer ob = { buf + *done, cap - *done, 0 };
		size_t in0 = ib.pos;
		r = ZSTD_decompressStream(dc, &ob, &ib);
		if (ZSTD_isError(r))
			break;
		*done += ob.pos;
		if (!ob.pos && ib.pos == in0)
			break; /* no progress: truncated, or more than announced */
	}
	ZSTD_freeDCtx(dc);
	if (r != 0)
		*done = UINT64_MAX;
	return buf;
}

/* zlib (see zlib_begin), into a buffer that grows as data comes. */
static unsigned char *grow_zlib(const struct jh_packed *pk, unsigned char *buf, uint64_t cap,
				uint64_t *done)
{
	z_stream zs;
	uint64_t in_left, size = pk->size;
	*done = UINT64_MAX; /* failed, until the stream ends */
	if (jh_zlib_begin(&zs, pk->packed, pk->packed_size, &in_left) != 0)
		return buf;
	*done = 0;
	int rc = Z_OK;
	while (rc == Z_OK) {
		if (*done == cap && cap < size)
			buf = grow(buf, &cap, size);
		uint64_t room = cap - *done;
		uInt give = jh_take_1g(&room);
		zs.next_out = buf + *done;
		zs.avail_out = give;
		rc = jh_zlib_step(&zs, &in_left, size - *done - give);
		*done += give - zs.avail_out;
	}
	inflateEnd(&zs);
	if (rc != Z_STREAM_END)
		*done = UINT64_MAX;
	return buf;
}

/*
 * Inflates a section into a buffer that starts at 4 x its compressed size
 * and doubles as the data comes: a size the header announces is never
 * allocated before the data proves it. Returns the buffer (exactly
 * pub.size bytes came out) or NULL.
 */
unsigned char *jh_inflate_grow(const struct jh_packed *pk)
{
	uint64_t size = pk->size, first = pk->packed_size * 4;
	uint64_t cap = first < size ? first : size, done = 0;
	unsigned char *buf = xmalloc(cap ? cap : 1);
	if (pk->zstd)
		buf = grow_zstd(pk, buf, cap, &done);
	else
		buf = grow_zlib(pk, buf, cap, &done);
	if (done != size) {
		free(buf);
		return NULL;
	}
	return buf;
}
