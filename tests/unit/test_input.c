/* input.c: lines, CRLF, NUL bytes, gzip/zstd by magic bytes, truncation, files;
 * jh_input_line and its two halves (_buffered, _refill) give the same. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "jeheap/input.h"
#include "jeheap/profile.h"

/* Reads every line of in into one "|"-joined string (caller frees). */
static char *all_lines(struct jh_input *in, int *rc, struct jh_diag *d)
{
	struct jh_sb sb;
	jh_sb_init(&sb);
	char *line;
	size_t len;
	while ((*rc = jh_input_line(in, &line, &len, d)) > 0) {
		jh_sb_add(&sb, line, len);
		jh_sb_addc(&sb, '|');
	}
	return jh_sb_detach(&sb);
}

/* The same through the two halves, jh_input_line_buffered and
 * jh_input_line_refill. */
static char *all_lines_halves(struct jh_input *in, int *rc, struct jh_diag *d)
{
	struct jh_sb sb;
	jh_sb_init(&sb);
	char *line;
	size_t len;
	for (;;) {
		if (!jh_input_line_buffered(in, &line, &len) &&
		    (*rc = jh_input_line_refill(in, &line, &len, d)) <= 0)
			break;
		assert_int_equal(line[len], 0);
		jh_sb_add(&sb, line, len);
		jh_sb_addc(&sb, '|');
	}
	return jh_sb_detach(&sb);
}

/* Reads data with both readers, which must agree (lines, result, message,
 * line number and byte count). */
static char *mem_lines(const void *data, size_t n, int *rc, struct jh_diag *d)
{
	struct jh_input *in = jh_input_mem(data, n, "m");
	char *s = all_lines(in, rc, d);
	struct jh_input *in2 = jh_input_mem(data, n, "m");
	struct jh_diag d2 = { { 0 }, 0 };
	int rc2;
	char *s2 = all_lines_halves(in2, &rc2, &d2);
	assert_string_equal(s2, s);
	assert_int_equal(rc2, *rc);
	if (*rc < 0)
		assert_string_equal(d2.msg, d->msg);
	assert_int_equal(jh_input_lineno(in2), jh_input_lineno(in));
	assert_int_equal(jh_input_bytes(in2), jh_input_bytes(in));
	assert_int_equal(jh_input_unterminated(in2), jh_input_unterminated(in));
	free(s2);
	jh_input_close(in2);
	jh_input_close(in);
	return s;
}

static void *gzip_bytes(const char *text, size_t n, size_t *out)
{
	z_stream zs;
	memset(&zs, 0, sizeof(zs));
	assert_int_equal(deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	size_t cap = deflateBound(&zs, n);
	unsigned char *buf = malloc(cap);
	zs.next_in = (unsigned char *)text;
	zs.avail_in = (uInt)n;
	zs.next_out = buf;
	zs.avail_out = (uInt)cap;
	assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
	*out = cap - zs.avail_out;
	deflateEnd(&zs);
	return buf;
}

static void *zstd_bytes(const char *text, size_t n, size_t *out)
{
	size_t cap = ZSTD_compressBound(n);
	void *buf = malloc(cap);
	*out = ZSTD_compress(buf, cap, text, n, 3);
	assert_false(ZSTD_isError(*out));
	return buf;
}

static void test_lines_crlf(void **state)
{
	(void)state;
	struct jh_diag d = { { 0 }, 0 };
	int rc;
	const char t[] = "a\r\nbb\n\r\n\nlast\r";
	struct jh_input *in = jh_input_mem(t, sizeof(t) - 1, "m");
	char *line;
	size_t len;
	assert_int_equal(jh_input_line(in, &line, &len, &d), 1);
	assert_int_equal(len, 1);
	assert_int_equal(jh_input_lineno(in), 1);
	assert_false(jh_input_unterminated(in));
	jh_input_close(in);
	char *s = mem_lines(t, sizeof(t) - 1, &rc, &d);
	assert_int_equal(rc, 0);
	assert_string_equal(s, "a|bb|||last|");
	free(s);
	in = jh_input_mem(t, sizeof(t) - 1, "m");
	free(all_lines(in, &rc, &d));
	assert_int_equal(jh_input_lineno(in), 5);
	assert_true(jh_input_unterminated(in));
	assert_int_equal(jh_input_bytes(in), sizeof(t) - 1);
	jh_input_close(in);
	s = mem_lines("", 0, &rc, &d);
	assert_string_equal(s, "");
	free(s);
}

static void test_long_lines(void **state)
{
	(void)state;
	/* lines longer than the initial window and many lines across refills */
	size_t n = 3 * 1024 * 1024;
	char *t = malloc(n + 16);
	memset(t, 'x', n);
	memcpy(t + n, "\nend\n", 6);
	struct jh_diag d = { { 0 }, 0 };
	int rc;
	char *s = mem_lines(t, n + 5, &rc, &d);
	assert_int_equal(rc, 0);
	assert_int_equal(strlen(s), n + 5);
	assert_string_equal(s + n, "|end|");
	free(s);
	free(t);
}

static void test_nul_byte(void **state)
{
	(void)state;
	struct jh_diag d = { { 0 }, 0 };
	int rc;
	const char t[] = "heap_v2/1\nok\nbad\0line\n";
	free(mem_lines(t, sizeof(t) - 1, &rc, &d));
	assert_int_equal(rc, -1);
	assert_string_equal(d.msg, "m:3: binary data (NUL byte), not a text profile");
	assert_int_equal(d.code, JH_EXIT_INPUT);
}

/* The line scan stops at a NUL wherever it is: after window refills, in a
 * line longer than the window, in the unterminated last line, as the last
 * byte, or in decompressed data; the lines before it are all read. */
static void check_nul_at(const char *t, size_t n, int compress, unsigned long line)
{
	struct jh_diag d = { { 0 }, 0 };
	int rc;
	size_t zn = n;
	void *z = compress ? gzip_bytes(t, n, &zn) : NULL;
	char *s = mem_lines(z ? z : t, zn, &rc, &d);
	assert_int_equal(rc, -1);
	char want[128];
	snprintf(want, sizeof(want), "m:%lu: binary data (NUL byte), not a text profile", line);
	assert_string_equal(d.msg, want);
	size_t bars = 0;
	for (const char *q = s; *q; q++)
		bars += *q == '|';
	assert_int_equal(bars, line - 1);
	free(s);
	free(z);
}

static void test_nul_byte_anywhere(void **state)
{
	(void)state;
	size_t n = 1000 * 1000;
	char *t = malloc(n);
	for (size_t i = 0; i < n; i++)
		t[i] = i % 100 == 99 ? '\n' : 'a'; /* line k ends at byte 100k + 99 */
	size_t at[] = { 0, 98, 100, 131071, 131072, 131073, 500050, n - 2 };
	for (size_t k = 0; k < sizeof(at) / sizeof(at[0]); k++) {
		t[at[k]] = 0;
		check_nul_at(t, n, 0, at[k] / 100 + 1);
		check_nul_at(t, n, 1, at[k] / 100 + 1);
		t[at[k]] = 'a';
	}
	t[n - 1] = 0; /* the last byte: an unterminated line */
	check_nul_at(t, n, 0, n / 100);
	t[n - 1] = '\n';
	memset(t, 'b', 400000); /* a line longer than the window, NUL far in */
	t[300000] = 0;
	check_nul_at(t, n, 0, 1);
	free(t);
}

static void test_gzip_zstd(void **state)
{
	(void)state;
	/* big enough for several window refills */
	struct jh_sb text;
	jh_sb_init(&text);
	for (int i = 0; i < 200000; i++)
		jh_sb_addf(&text, "line %d\r\n", i);
	struct jh_diag d = { { 0 }, 0 };
	int rc;
	char *plain = mem_lines(text.buf, text.len, &rc, &d);
	size_t gn, zn;
	unsigned char *gz = gzip_bytes(text.buf, text.len, &gn);
	unsigned char *zs = zstd_bytes(text.buf, text.len, &zn);
	char *s = mem_lines(gz, gn, &rc, &d);
	assert_int_equal(rc, 0);
	assert_string_equal(s, plain);
	free(s);
	s = mem_lines(zs, zn, &rc, &d);
	assert_int_equal(rc, 0);
	assert_string_equal(s, plain);
	free(s);

	/* two gzip members / two zstd frames, as `cat a.gz b.gz` makes */
	size_t n1, n2;
	unsigned char *g1 = gzip_bytes("a\nb", 3, &n1), *g2 = gzip_bytes("c\n", 2, &n2);
	unsigned char *cat = malloc(n1 + n2);
	memcpy(cat, g1, n1);
	memcpy(cat + n1, g2, n2);
	s = mem_lines(cat, n1 + n2, &rc, &d);
	assert_int_equal(rc, 0);
	assert_string_equal(s, "a|bc|");
	free(s);
	free(cat);
	free(g1);
	free(g2);
	g1 = zstd_bytes("a\nb", 3, &n1);
	g2 = zstd_bytes("c\n", 2, &n2);
	cat = malloc(n1 + n2);
	memcpy(cat, g1, n1);
	memcpy(cat + n1, g2, n2);
	s = mem_lines(cat, n1 + n2, &rc, &d);
	assert_string_equal(s, "a|bc|");
	free(s);
	free(cat);
	free(g1);
	free(g2);

	/* truncated and corrupt streams */
	free(mem_lines(gz, gn / 2, &rc, &d));
	assert_int_equal(rc, -1);
	assert_non_null(strstr(d.msg, ": truncated gzip data"));
	free(mem_lines(zs, zn / 2, &rc, &d));
	assert_int_equal(rc, -1);
	assert_non_null(strstr(d.msg, ": truncated zstd data"));
	free(mem_lines(gz, 2, &rc, &d));
	assert_string_equal(d.msg, "m:1: truncated gzip data");
	gz[gn / 2] ^= 0xff;
	gz[gn / 2 + 1] ^= 0xff;
	free(mem_lines(gz, gn, &rc, &d));
	assert_int_equal(rc, -1);
	assert_non_null(strstr(d.msg, "gzip data"));
	zs[4] ^= 0xff; /* frame header (the payload has no checksum by default) */
	free(mem_lines(zs, zn, &rc, &d));
	assert_int_equal(rc, -1);
	assert_non_null(strstr(d.msg, "zstd data"));
	free(gz);
	free(zs);
	free(plain);
	jh_sb_release(&text);
}

static void test_files(void **state)
{
	(void)state;
	struct jh_diag d = { { 0 }, 0 };
	assert_null(jh_input_open("/nonexistent/x.heap", &d));
	assert_string_equal(d.msg, "/nonexistent/x.heap: cannot open: No such file or directory");
	assert_int_equal(d.code, JH_EXIT_INPUT);

	/* a compressed file named .heap (magic bytes decide, not the name) */
	char path[] = "/tmp/jh_test_inputXXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	size_t n;
	const char text[] = "heap_v2/0\n@ 0x1 0x2\n  t*: 1: 10 [0: 0]\n";
	void *z = zstd_bytes(text, sizeof(text) - 1, &n);
	assert_int_equal(write(fd, z, n), (ssize_t)n);
	close(fd);
	free(z);
	struct jh_profile p;
	jh_profile_init(&p);
	assert_int_equal(jh_profile_read(&p, path, &d), 0);
	assert_int_equal(p.nstacks, 1);
	assert_true(p.stacks[0].c.v[1] == 10);
	assert_string_equal(p.source, path);
	jh_profile_release(&p);

	/* "-" reads stdin, compressed too (detected without seeking) */
	int saved = dup(0);
	int in_fd = open(path, O_RDONLY);
	assert_true(saved >= 0 && in_fd >= 0);
	assert_int_equal(dup2(in_fd, 0), 0);
	close(in_fd);
	jh_profile_init(&p);
	assert_int_equal(jh_profile_read(&p, "-", &d), 0);
	assert_int_equal(p.nstacks, 1);
	assert_string_equal(p.source, "-");
	jh_profile_release(&p);
	assert_int_equal(dup2(saved, 0), 0);
	close(saved);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_crlf), cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_nul_byte),   cmocka_unit_test(test_nul_byte_anywhere),
		cmocka_unit_test(test_gzip_zstd),  cmocka_unit_test(test_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
