/*
 * libFuzzer target: the pprof profile.proto reader (src/input/parse_pprof.c).
 * The input is read as is, and once more gzip-compressed (the reader is
 * reached through the stream reader either way), as jeheap reads it (split
 * symbols, dense pc ids); any input must give a profile or one diagnostic.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <zlib.h>

#include "jeheap/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_one(const void *data, size_t size)
{
	struct jh_profile p;
	struct jh_diag d = { { 0 }, 0 };
	jh_profile_init(&p);
	p.split_symbols = 1;
	p.dense_pcs = 1;
	p.no_threads = 1;
	int rc = jh_profile_read_mem(&p, data, size, "fuzz", &d);
	if (rc != 0 && (rc != -1 || !d.msg[0] || !d.code))
		abort();
	if (rc == 0 && jh_profile_handover(&p, &d) != 0 && !d.msg[0])
		abort();
	jh_profile_release(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a profile.proto starts with a length-delimited field: make most
	 * inputs one, so that mutations explore the message, not the detection */
	uint8_t *buf = malloc(size + 2);
	buf[0] = 0x0a;
	buf[1] = 0x00;
	for (size_t i = 0; i < size; i++)
		buf[i + 2] = data[i];
	read_one(data, size);
	read_one(buf, size + 2);
	uLongf zn = compressBound(size + 2) + 32;
	uint8_t *z = malloc(zn);
	z_stream zs = { 0 };
	if (deflateInit2(&zs, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK) {
		zs.next_in = buf;
		zs.avail_in = (uInt)(size + 2);
		zs.next_out = z;
		zs.avail_out = (uInt)zn;
		if (deflate(&zs, Z_FINISH) == Z_STREAM_END)
			read_one(z, zn - zs.avail_out);
		deflateEnd(&zs);
	}
	free(z);
	free(buf);
	return 0;
}
