/* input.c - chunked line reader with gzip/zstd detection (zlib, libzstd). */
#include "jeheap/input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#define JH_IN_CHUNK (256 * 1024)          /* compressed read size */
#define JH_BUF_INIT (128 * 1024)          /* decompressed window (stays in L2) */
#define JH_MAX_LINE (256UL * 1024 * 1024) /* a longer line is not a profile */
#define JH_BOMB_AFTER (64ULL << 20)       /* decompressed bytes before the ratio counts */
#define JH_BOMB_RATIO 500u                /* more out per byte in is a decompression bomb */
#define JH_ZSTD_WINDOW_LOG 27             /* 128 MiB, zstd's own default limit */

enum jh_codec { JH_PLAIN, JH_GZIP, JH_ZSTD };

struct jh_input {
	char *name;
	int fd, own_fd;
	const unsigned char *mem; /* memory source, or NULL */
	size_t memlen, mempos;
	int src_eof; /* the source has no more bytes */
	enum jh_codec codec;
	z_stream zs;
	ZSTD_DStream *zd;
	int stream_end;     /* the last compressed frame/member was complete */
	unsigned char *raw; /* compressed bytes [rawpos, rawlen) not yet consumed */
	size_t rawpos, rawlen, rawcap;
	char *buf;                    /* decompressed window: [start, end) unconsumed */
	size_t cap, start, end, scan; /* scan: no '\n' in [start, scan) */
	int eof;                      /* no more decompressed data will come */
	unsigned long lineno;
	int unterminated;
	uint64_t bytes;
	uint64_t raw_in, out; /* compressed bytes read, decompressed bytes made */
};

/* Reads up to n raw bytes from the source; 0 = end, -1 = error (errno). */
static ssize_t src_read(struct jh_input *in, void *dst, size_t n)
{
	if (in->mem) {
		size_t k = in->memlen - in->mempos;
		if (k > n)
			k = n;
		memcpy(dst, in->mem + in->mempos, k);
		in->mempos += k;
		return (ssize_t)k;
	}
	for (;;) {
		ssize_t r = read(in->fd, dst, n);
		if (r >= 0 || errno != EINTR)
			return r;
	}
}

static int read_error(struct jh_input *in, struct jh_diag *d)
{
	return jh_diag_set(d, JH_EXIT_INPUT, in->name, 0, "read error: %s", strerror(errno));
}

/* Refills in->raw when it is empty. Returns 0, or -1 with d set. */
static int raw_fill(struct jh_input *in, struct jh_diag *d)
{
	if (in->rawpos < in->rawlen || in->src_eof)
		return 0;
	ssize_t r = src_read(in, in->raw, in->rawcap);
	if (r < 0)
		return read_error(in, d);
	in->raw_in += (uint64_t)r;
	in->rawpos = 0;
	in->rawlen = (size_t)r;
	if (r == 0)
		in->src_eof = 1;
	return 0;
}

/* size: a hint of the input size (small memory inputs get small buffers) */
static struct jh_input *input_new(const char *name, size_t size)
{
	struct jh_input *in = xcalloc(1, sizeof(*in));
	in->name = xstrdup(name);
	in->fd = -1;
	in->rawcap = size < JH_IN_CHUNK ? (size < 4096 ? 4096 : size) : JH_IN_CHUNK;
	in->raw = xmalloc(in->rawcap);
	in->cap = size < JH_BUF_INIT / 4 ? 4096 : JH_BUF_INIT;
	in->buf = xcalloc(1, in->cap + 1 + JH_INPUT_PAD);
	return in;
}

/* Reads the first bytes and picks the codec by magic number. */
static int detect(struct jh_input *in, struct jh_diag *d)
{
	while (in->rawlen < 4 && !in->src_eof) {
		ssize_t r = src_read(in, in->raw + in->rawlen, in->rawcap - in->rawlen);
		if (r < 0)
			return read_error(in, d);
		if (r == 0)
			in->src_eof = 1;
		in->rawlen += (size_t)r;
		in->raw_in += (uint64_t)r;
	}
	const unsigned char *m = in->raw;
	if (in->rawlen >= 2 && m[0] == 0x1f && m[1] == 0x8b) {
		in->codec = JH_GZIP;
		if (inflateInit2(&in->zs, 15 + 16) != Z_OK)
			return jh_diag_set(d, JH_EXIT_INTERNAL, in->name, 0,
					   "cannot initialise zlib");
	} else if (in->rawlen >= 4 && m[0] == 0x28 && m[1] == 0xb5 && m[2] == 0x2f &&
		   m[3] == 0xfd) {
		in->codec = JH_ZSTD;
		in->zd = ZSTD_createDStream();
		if (!in->zd || ZSTD_isError(ZSTD_initDStream(in->zd)) ||
		    ZSTD_isError(ZSTD_DCtx_setParameter(in->zd, ZSTD_d_windowLogMax,
							JH_ZSTD_WINDOW_LOG)))
			return jh_diag_set(d, JH_EXIT_INTERNAL, in->name, 0,
					   "cannot initialise zstd");
	}
	return 0;
}

struct jh_input *jh_input_open(const char *path, struct jh_diag *d)
{
	int fd = 0;
	if (strcmp(path, "-") != 0) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			jh_diag_set(d, JH_EXIT_INPUT, path, 0, "cannot open: %s", strerror(errno));
			return NULL;
		}
	}
	jh_oom_reading(fd ? path : "standard input");
	struct jh_input *in = input_new(path, SIZE_MAX);
	in->fd = fd;
	in->own_fd = fd != 0;
	if (in->own_fd)
		posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	if (detect(in, d) < 0) {
		jh_input_close(in);
		return NULL;
	}
	return in;
}

struct jh_input *jh_input_mem(const void *data, size_t n, const char *name)
{
	static const unsigned char empty[1];
	struct jh_input *in = input_new(name, data ? n : 0);
	in->mem = data ? data : empty;
	in->memlen = data ? n : 0;
	if (detect(in, NULL) < 0) /* cannot fail for memory, except codec init */
		in->codec = JH_PLAIN;
	return in;
}

void jh_input_close(struct jh_input *in)
{
	if (!in)
		return;
	if (in->codec == JH_GZIP)
		inflateEnd(&in->zs);
	if (in->zd)
		ZSTD_freeDStream(in->zd);
	if (in->own_fd)
		close(in->fd);
	free(in->raw);
	free(in->buf);
	free(in->name);
	free(in);
}

/* Skips zero bytes after a gzip stream: to the end, or -1 at anything else. */
static int skip_zeros(struct jh_input *in, struct jh_diag *d)
{
	for (;;) {
		while (in->rawpos < in->rawlen && in->raw[in->rawpos] == 0)
			in->rawpos++;
		if (in->rawpos < in->rawlen)
			return jh_diag_set(d, JH_EXIT_INPUT, in->name, in->lineno + 1,
					   "trailing garbage after the gzip data");
		if (in->src_eof)
			return 0;
		if (raw_fill(in, d) < 0)
			return -1;
	}
}

/* Decompresses gzip into dst; returns bytes produced, 0 at end, -1 on error.
 * At the end of the source inflate is called once more with no input, as it
 * may still hold output that did not fit last time. */
static ssize_t gz_fill(struct jh_input *in, char *dst, size_t n, struct jh_diag *d)
{
	for (;;) {
		if (raw_fill(in, d) < 0)
			return -1;
		int more = in->rawpos < in->rawlen;
		if (!more && in->stream_end)
			return 0;
		if (more && in->stream_end && in->raw[in->rawpos] == 0) {
			/* zero padding after the last member: skipped, as gzip does */
			if (skip_zeros(in, d) < 0)
				return -1;
			continue;
		}
		if (more && in->stream_end) {
			/* another gzip member follows (concatenated .gz files) */
			inflateReset(&in->zs);
			in->stream_end = 0;
		}
		in->zs.next_in = in->raw + in->rawpos;
		in->zs.avail_in = (uInt)(in->rawlen - in->rawpos);
		in->zs.next_out = (unsigned char *)dst;
		in->zs.avail_out = (uInt)n;
		int r = inflate(&in->zs, Z_NO_FLUSH);
		in->rawpos = in->rawlen - in->zs.avail_in;
		size_t got = n - in->zs.avail_out;
		if (r == Z_STREAM_END)
			in->stream_end = 1;
		else if (r != Z_OK && r != Z_BUF_ERROR)
			return jh_diag_set(d, JH_EXIT_INPUT, in->name, in->lineno + 1,
					   "corrupt gzip data (%s)",
					   in->zs.msg ? in->zs.msg : "inflate failed");
		if (got)
			return (ssize_t)got;
		if (!more && !in->stream_end)
			return jh_diag_set(d, JH_EXIT_INPUT, in->name, in->lineno + 1,
					   "truncated gzip data");
	}
}

/* Same for zstd (several frames may follow each other). */
static ssize_t zstd_fill(struct jh_input *in, char *dst, size_t n, struct jh_diag *d)
{
	for (;;) {
		if (raw_fill(in, d) < 0)
			return -1;
		int more = in->rawpos < in->rawlen;
		ZSTD_inBuffer ib = { in->raw, in->rawlen, in->rawpos };
		ZSTD_outBuffer ob = { dst, n, 0 };
		size_t r = ZSTD_decompressStream(in->zd, &ob, &ib);
		in->rawpos = ib.pos;
		if (ZSTD_getErrorCode(r) == ZSTD_error_frameParameter_windowTooLarge)
			return jh_diag_set(d, JH_EXIT_INPUT, in->name, in->lineno + 1,
					   "zstd frame needs a window over %u MiB, not read",
					   1u << (JH_ZSTD_WINDOW_LOG - 20));
		if (ZSTD_isError(r))
			return jh_diag_set(d, JH_EXIT_INPUT, in->name, in->lineno + 1,
					   "corrupt zstd data (%s)", ZSTD_getErrorName(r));
		if (more || ob.pos)
			in->stream_end = r == 0;
		if (ob.pos)
			return (ssize_t)ob.pos;
		if (!more) {
			if (!in->stream_end)
				return jh_diag_set(d, JH_EXIT_INPUT, in->name, in->lineno + 1,
						   "truncated zstd data");
			return 0;
		}
	}
}

static ssize_t plain_fill(struct jh_input *in, char *dst, size_t n, struct jh_diag *d)
{
	if (in->rawpos < in->rawlen) { /* bytes read by detect() */
		size_t k = in->rawlen - in->rawpos;
		if (k > n)
			k = n;
		memcpy(dst, in->raw + in->rawpos, k);
		in->rawpos += k;
		return (ssize_t)k;
	}
	if (in->src_eof)
		return 0;
	ssize_t r = src_read(in, dst, n);
	if (r < 0)
		return read_error(in, d);
	if (r == 0)
		in->src_eof = 1;
	return r;
}

/* Appends more data to the window; sets in->eof at the end. */
static int fill(struct jh_input *in, struct jh_diag *d)
{
	if (in->start > 0) {
		memmove(in->buf, in->buf + in->start, in->end - in->start);
		in->end -= in->start;
		in->scan -= in->start;
		in->start = 0;
		in->buf[in->end] = 0;
	}
	if (in->end == in->cap) {
		if (in->cap >= JH_MAX_LINE)
			return jh_diag_set(d, JH_EXIT_INPUT, in->name, in->lineno + 1,
					   "line longer than %lu bytes", JH_MAX_LINE);
		in->cap *= 2;
		in->buf = xrealloc(in->buf, in->cap + 1 + JH_INPUT_PAD);
		memset(in->buf + in->end, 0, in->cap + 1 + JH_INPUT_PAD - in->end);
	}
	char *dst = in->buf + in->end;
	size_t room = in->cap - in->end;
	ssize_t r;
	if (in->codec == JH_GZIP)
		r = gz_fill(in, dst, room, d);
	else if (in->codec == JH_ZSTD)
		r = zstd_fill(in, dst, room, d);
	else
		r = plain_fill(in, dst, room, d);
	if (r < 0) {
		in->buf[in->end] = 0; /* a failed inflate may have written past it */
		return -1;
	}
	if (r == 0) {
		in->eof = 1;
		return 0;
	}
	in->out += (uint64_t)r;
	if (in->codec != JH_PLAIN && in->out > JH_BOMB_AFTER &&
	    in->out / JH_BOMB_RATIO > in->raw_in)
		return jh_diag_set(d, JH_EXIT_INPUT, in->name, 0,
				   "decompression bomb: %llu MB from %llu KB (more than %u:1), "
				   "not read",
				   (unsigned long long)(in->out >> 20),
				   (unsigned long long)(in->raw_in >> 10), JH_BOMB_RATIO);
	in->end += (size_t)r;
	in->buf[in->end] = 0; /* stops the line scan (jh_input_line_buffered) */
	return 0;
}

/* Hands out the line s[0..n) (its '\n', if any, is at s[n]). */
static int give_line(struct jh_input *in, char *s, size_t n, char **line, size_t *len)
{
	in->scan = in->start;
	in->lineno++;
	while (n && s[n - 1] == '\r')
		n--;
	s[n] = 0;
	*line = s;
	*len = n;
	return 1;
}

/* The line ending at stop, the first '\n' or NUL from in->scan: a NUL ends
 * the buffered data (or is in it) and the line is not complete (0). */
static inline int line_at(struct jh_input *in, const char *stop, char **line, size_t *len)
{
	if (*stop != '\n') {
		in->scan = (size_t)(stop - in->buf);
		return 0;
	}
	char *s = in->buf + in->start;
	size_t n = (size_t)(stop - s);
	in->start += n + 1;
	in->bytes += n + 1;
	return give_line(in, s, n, line, len);
}

/*
 * Lines are found with strchrnul, which stops at a '\n' or a NUL: the window
 * ends with one (fill), so a scan that stops before the window's end has met
 * a NUL byte in the data, which jh_input_line reports. One pass finds both.
 */
int jh_input_line_buffered(struct jh_input *in, char **line, size_t *len)
{
	return line_at(in, strchrnul(in->buf + in->scan, '\n'), line, len);
}

int jh_input_line_refill(struct jh_input *in, char **line, size_t *len, struct jh_diag *d)
{
	for (;;) {
		if (in->scan < in->end) /* the line holds a NUL byte */
			return jh_diag_set(d, JH_EXIT_INPUT, in->name, in->lineno + 1,
					   "binary data (NUL byte), not a text profile");
		if (in->eof) {
			if (in->start == in->end)
				return 0;
			char *s = in->buf + in->start;
			size_t n = in->end - in->start;
			in->start = in->end;
			in->bytes += n;
			in->unterminated = 1;
			return give_line(in, s, n, line, len);
		}
		if (fill(in, d) < 0)
			return -1;
		if (jh_input_line_buffered(in, line, len))
			return 1;
	}
}

unsigned long jh_input_lineno(const struct jh_input *in)
{
	return in->lineno;
}

int jh_input_unterminated(const struct jh_input *in)
{
	return in->unterminated;
}

const char *jh_input_name(const struct jh_input *in)
{
	return in->name;
}

uint64_t jh_input_bytes(const struct jh_input *in)
{
	return in->bytes;
}

int jh_input_peek(struct jh_input *in, const unsigned char **p, size_t *n, struct jh_diag *d)
{
	while (in->end - in->start < 64 && !in->eof && in->end < in->cap)
		if (fill(in, d) < 0)
			return -1;
	*p = (const unsigned char *)in->buf + in->start;
	*n = in->end - in->start;
	return 0;
}

int jh_input_slurp(struct jh_input *in, struct jh_sb *out, size_t max, struct jh_diag *d)
{
	for (;;) {
		size_t k = in->end - in->start;
		if (out->len + k > max)
			return jh_diag_set(d, JH_EXIT_INPUT, in->name, 0,
					   "larger than %zu bytes, not read", max);
		jh_sb_add(out, in->buf + in->start, k);
		in->bytes += k;
		in->start = in->scan = in->end = 0;
		if (in->eof)
			return 0;
		if (fill(in, d) < 0)
			return -1;
	}
}
