/*
 * test_parse_numbers.c - the number parsers of the readers (parse.h): the
 * fast path (SWAR) against the plain _slow ones and
 * against expected values and messages, on lines in buffers of exactly
 * the size the input guarantees (the line, its NUL, JH_INPUT_PAD bytes), so
 * that ASan catches any read past them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

struct rd {
	struct jh_reader r;
	struct jh_diag d;
};

static void rd_init(struct rd *t)
{
	memset(t, 0, sizeof(*t));
	t->r.in = jh_input_mem("", 0, "t");
	t->r.d = &t->d;
	jh_sb_init(&t->r.quote);
}

static void rd_release(struct rd *t)
{
	jh_input_close(t->r.in);
	jh_sb_release(&t->r.quote);
	free(t->r.pcs);
}

/* text in a buffer of strlen + 1 + JH_INPUT_PAD bytes; the padding holds
 * pad bytes (the input leaves the following lines there). */
static char *line_buf(const char *text, char pad)
{
	size_t n = strlen(text);
	char *b = xmalloc(n + 1 + JH_INPUT_PAD);
	memcpy(b, text, n);
	b[n] = 0;
	memset(b + n + 1, pad, JH_INPUT_PAD);
	return b;
}

typedef int hexfn(struct jh_reader *, const char **, const char *, uint64_t *);

static hexfn *const hexfns[] = {
	jh_parse_hex,
	jh_parse_hex_swar,
	jh_parse_hex_slow,
};

struct hexcase {
	const char *text;
	size_t elen;     /* e = text + elen; 0 = strlen(text) */
	uint64_t v;      /* value */
	size_t used;     /* bytes read */
	const char *msg; /* error, or NULL */
};

static const struct hexcase hexcases[] = {
	{ "0x1", 0, 1, 3, NULL },
	{ "1", 0, 1, 1, NULL },
	{ "0", 0, 0, 1, NULL },
	{ "0x0", 0, 0, 3, NULL },
	{ "0x7f7e516a2630", 0, 0x7f7e516a2630ULL, 14, NULL },
	{ "0x7f7e516a2630 0x1", 0, 0x7f7e516a2630ULL, 14, NULL },
	{ "0x7f7e516a2630\t0x1", 0, 0x7f7e516a2630ULL, 14, NULL },
	{ "0x7f7e516a2630\r", 0, 0x7f7e516a2630ULL, 14, NULL },
	{ "0x7F7E516A2630", 0, 0x7f7e516a2630ULL, 14, NULL },
	{ "0X7f7e516A2630", 0, 0x7f7e516a2630ULL, 14, NULL },
	{ "7f7e516a2630  x", 0, 0x7f7e516a2630ULL, 12, NULL },
	{ "0x123456789abcd", 0, 0x123456789abcdULL, 15, NULL },
	{ "0x123456789abcde", 0, 0x123456789abcdeULL, 16, NULL },
	{ "0x123456789abcdef", 0, 0x123456789abcdefULL, 17, NULL },
	{ "0x0000000000001000 main", 0, 0x1000, 18, NULL },
	{ "0xffffffffffffffff", 0, UINT64_MAX, 18, NULL },
	{ "0xFFFFFFFFFFFFFFFF ", 0, UINT64_MAX, 18, NULL },
	{ "ffffffffffffffff", 0, UINT64_MAX, 16, NULL },
	{ "0x0ffffffffffffffff", 0, UINT64_MAX, 19, NULL },
	{ "0x00000000000000000000001", 0, 1, 25, NULL },
	{ "00000000000000000", 0, 0, 17, NULL },
	{ "0x8000000000000000", 0, 0x8000000000000000ULL, 18, NULL },
	{ "0x1234 tail", 6, 0x1234, 6, NULL }, /* e at the space */
	{ "0x123456789", 6, 0x1234, 6, NULL }, /* e inside the digits */
	{ "0x12", 1, 0, 1, NULL },             /* e before the x: "0" */
	{ "0x", 0, 0, 0, "t: bad address '0x'" },
	{ "0x 1", 0, 0, 0, "t: bad address '0x'" },
	{ "x1", 0, 0, 0, "t: bad address 'x1'" },
	{ "0xg", 0, 0, 0, "t: bad address '0xg'" },
	{ "0x12g4 0x1", 0, 0, 0, "t: bad address '0x12g4'" },
	{ "0x7f7e516a2630,", 0, 0, 0, "t: bad address '0x7f7e516a2630,'" },
	{ "0x7f7e516a2630@0x1", 0, 0, 0, "t: bad address '0x7f7e516a2630@0x1'" },
	{ "0x1\x80", 0, 0, 0, "t: bad address '0x1\x80'" },
	{ "0x12\x01", 0, 0, 0, "t: bad address '0x12?'" },
	{ "0x123456789abcdefg", 0, 0, 0, "t: bad address '0x123456789abcdefg'" },
	{ "0x1ffffffffffffffff", 0, 0, 0,
	  "t: address '0x1ffffffffffffffff' longer than 16 hex digits" },
	{ "0x0001ffffffffffffffff 0x1", 0, 0, 0,
	  "t: address '0x0001ffffffffffffffff' longer than 16 hex digits" },
	{ "", 0, 0, 0, "t: bad address ''" },
	{ " 0x1", 0, 0, 0, "t: bad address ''" },
};

/* One case with every implementation and two paddings. */
static void check_hex(const struct hexcase *c)
{
	for (int pad = 0; pad < 2; pad++) {
		char *b = line_buf(c->text, pad ? 'f' : 0);
		const char *e = b + (c->elen ? c->elen : strlen(c->text));
		for (size_t k = 0; k < JH_ARRAY_SIZE(hexfns); k++) {
			struct rd t;
			rd_init(&t);
			const char *s = b;
			uint64_t v = 42;
			int rc = hexfns[k](&t.r, &s, e, &v);
			if (c->msg) {
				if (rc != -1 || strcmp(t.d.msg, c->msg))
					fail_msg("'%s' (fn %zu): rc %d '%s', expected '%s'",
						 c->text, k, rc, t.d.msg, c->msg);
				assert_ptr_equal(s, b); /* not advanced */
			} else {
				if (rc != 0 || v != c->v || (size_t)(s - b) != c->used)
					fail_msg(
						"'%s' (fn %zu): rc %d, %llx after %zu bytes ('%s')",
						c->text, k, rc, (unsigned long long)v,
						(size_t)(s - b), t.d.msg);
			}
			rd_release(&t);
		}
		free(b);
	}
}

static void test_hex_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < JH_ARRAY_SIZE(hexcases); i++)
		check_hex(&hexcases[i]);
}

/* Every digit count 1..16, upper and lower case, each end: the fast
 * versions agree with the value built digit by digit. */
static void test_hex_lengths(void **state)
{
	(void)state;
	static const char dig[] = "0123456789abcdef";
	static const char *const ends[] = { "", " ", "\t", " 0x1", "\r", "  \t" };
	for (int n = 1; n <= 16; n++)
		for (int upper = 0; upper < 2; upper++)
			for (size_t k = 0; k < JH_ARRAY_SIZE(ends); k++) {
				char text[64];
				uint64_t v = 0;
				int o = snprintf(text, sizeof(text), "%s", upper ? "0X" : "0x");
				for (int i = 0; i < n; i++) {
					int d = (i * 7 + n + 1) % 16;
					char c = dig[d];
					text[o++] = upper && c >= 'a' ? (char)(c - 32) : c;
					v = v << 4 | (uint64_t)d;
				}
				snprintf(text + o, sizeof(text) - (size_t)o, "%s", ends[k]);
				struct hexcase c = { text, 0, v, (size_t)o, NULL };
				check_hex(&c);
			}
}

/* A reference jh_parse_stack: the slow parser, one address at a time. */
static int ref_stack(struct jh_reader *r, const char *s, const char *e, uint64_t *pcs, size_t *n)
{
	*n = 0;
	s = jh_skip_space(s, e);
	while (s < e) {
		uint64_t pc;
		if (jh_parse_hex_slow(r, &s, e, &pc))
			return -1;
		pcs[*n] = pc - (*n != 0);
		(*n)++;
		s = jh_skip_space(s, e);
	}
	if (!*n)
		return jh_bad_line(r, "stack without addresses");
	return 0;
}

/* jh_parse_stack on text (e = its end, trimmed or not) against ref_stack;
 * returns the number of pcs, or -1 (the message then in msg). */
static int check_stack(const char *text, uint64_t *pcs, char *msg)
{
	int ret = 0;
	for (int pad = 0; pad < 2; pad++) {
		char *b = line_buf(text, pad ? '1' : 0);
		const char *e = b + strlen(b);
		struct rd t, u;
		uint64_t ref[64];
		size_t nref;
		rd_init(&t);
		rd_init(&u);
		int rc = jh_parse_stack(&t.r, b, e);
		int rrc = ref_stack(&u.r, b, e, ref, &nref);
		if (rc != rrc)
			fail_msg("'%s': rc %d, reference %d ('%s' / '%s')", text, rc, rrc, t.d.msg,
				 u.d.msg);
		if (rc) {
			assert_string_equal(t.d.msg, u.d.msg);
			strcpy(msg, t.d.msg);
			ret = -1;
		} else {
			assert_int_equal(t.r.npcs, nref);
			uint64_t h = 0;
			for (size_t i = 0; i < nref; i++) {
				if (t.r.pcs[i] != ref[i])
					fail_msg("'%s': pc %zu = %llx, expected %llx", text, i,
						 (unsigned long long)t.r.pcs[i],
						 (unsigned long long)ref[i]);
				h = jh_stack_hash_step(h, ref[i]);
				pcs[i] = ref[i];
			}
			assert_true(t.r.pcs_hash == h);
			ret = (int)nref;
		}
		rd_release(&t);
		rd_release(&u);
		free(b);
	}
	return ret;
}

static void test_stack_lines(void **state)
{
	(void)state;
	uint64_t pcs[64];
	char msg[1024];
	assert_int_equal(check_stack(" 0x7f7e516a2630 0x55b0b9b9fe7f 0x1", pcs, msg), 3);
	assert_true(pcs[0] == 0x7f7e516a2630ULL && pcs[1] == 0x55b0b9b9fe7eULL && pcs[2] == 0);
	assert_int_equal(
		check_stack("0x1\t0X2  0x3 \t 4 0xABCDEF0123456 0xabcdef01234567", pcs, msg), 6);
	assert_true(pcs[3] == 3 && pcs[4] == 0xabcdef0123455ULL && pcs[5] == 0xabcdef01234566ULL);
	assert_int_equal(check_stack("0x0000000000000000001 0xffffffffffffffff 0x0 ", pcs, msg), 3);
	assert_true(pcs[0] == 1 && pcs[1] == UINT64_MAX - 1 && pcs[2] == UINT64_MAX);
	assert_int_equal(check_stack("0x123456789abcd 0x123456789abcde\r", pcs, msg), 2);
	assert_true(pcs[0] == 0x123456789abcdULL && pcs[1] == 0x123456789abcdd);
	/* 1..16 digits, each at the end of the line too */
	for (int n = 1; n <= 16; n++) {
		char text[128] = "0x";
		memset(text + 2, 'c', (size_t)n);
		strcpy(text + 2 + n, " 0x");
		memset(text + 5 + n, 'D', (size_t)n);
		assert_int_equal(check_stack(text, pcs, msg), 2);
		assert_true(pcs[0] == (UINT64_MAX >> (64 - 4 * n)) / 0xf * 0xc);
	}
	assert_int_equal(check_stack("0x1 0x2g", pcs, msg), -1);
	assert_string_equal(msg, "t: bad address '0x2g'");
	assert_int_equal(check_stack("0x7f7e516a2630,0x1", pcs, msg), -1);
	assert_string_equal(msg, "t: bad address '0x7f7e516a2630,0x1'");
	assert_int_equal(check_stack("0x1 0x", pcs, msg), -1);
	assert_string_equal(msg, "t: bad address '0x'");
	assert_int_equal(check_stack("0x10000000000000000", pcs, msg), -1);
	assert_string_equal(msg, "t: address '0x10000000000000000' longer than 16 hex digits");
	assert_int_equal(check_stack(" \t ", pcs, msg), -1);
	assert_string_equal(msg, "t: stack without addresses");
	/* the densest line: the scratch array is sized for it at once */
	for (size_t len = 1; len < 80; len++) {
		struct rd t;
		rd_init(&t);
		char *b = xmalloc(len + 1 + JH_INPUT_PAD);
		for (size_t i = 0; i < len; i++)
			b[i] = i % 2 ? '\t' : (char)('1' + i % 9);
		b[len] = 0;
		memset(b + len + 1, '1', JH_INPUT_PAD);
		assert_int_equal(jh_parse_stack(&t.r, b, b + len), 0);
		assert_int_equal(t.r.npcs, (len + 1) / 2);
		size_t last = 2 * (t.r.npcs - 1); /* its digit is '1' + last % 9 */
		assert_true(t.r.pcs[0] == 1 && (last == 0 || t.r.pcs[t.r.npcs - 1] == last % 9));
		free(b);
		rd_release(&t);
	}
}

/* Random lines of hex-like text: every implementation agrees with the slow
 * one from every start; jh_parse_stack agrees with ref_stack. */
static void test_hex_random(void **state)
{
	(void)state;
	static const char alpha[] = "0123456789abcdefABCDEFxX  \t\rg@\x80\xff";
	uint64_t seed = 12345;
	for (int iter = 0; iter < 20000; iter++) {
		char text[64];
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		size_t n = (size_t)(seed >> 59) + (size_t)(seed >> 62) * 8;
		for (size_t i = 0; i < n; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			unsigned k = (unsigned)(seed >> 40);
			/* mostly the usual shape: 0x, digits, spaces */
			text[i] = k % 4 ? "0123456789abcdef"[k / 4 % 16]
					: alpha[k / 4 % (sizeof(alpha) - 1)];
			if (k % 7 == 0 && i + 1 < n) {
				text[i] = '0';
				text[++i] = 'x';
			}
		}
		text[n] = 0;
		char *b = line_buf(text, (char)(seed >> 33));
		for (size_t st = 0; st <= n; st++) {
			struct rd ref;
			rd_init(&ref);
			const char *rs = b + st;
			uint64_t rv = 0;
			int rrc = jh_parse_hex_slow(&ref.r, &rs, b + n, &rv);
			for (size_t k = 0; k < JH_ARRAY_SIZE(hexfns); k++) {
				struct rd t;
				rd_init(&t);
				const char *s = b + st;
				uint64_t v = 0;
				int rc = hexfns[k](&t.r, &s, b + n, &v);
				if (rc != rrc || (rc == 0 && (v != rv || s != rs)) ||
				    (rc && strcmp(t.d.msg, ref.d.msg)))
					fail_msg("'%s'+%zu (fn %zu): %d %llx '%s', slow %d %llx "
						 "'%s'",
						 text, st, k, rc, (unsigned long long)v, t.d.msg,
						 rrc, (unsigned long long)rv, ref.d.msg);
				rd_release(&t);
			}
			rd_release(&ref);
		}
		free(b);
		uint64_t pcs[64];
		char msg[1024];
		check_stack(text, pcs, msg);
	}
}

typedef int numfn(struct jh_reader *, const char **, const char *, uint64_t *);

/* fn against ref (nv values each) on text[0..elen) (0 = all), with two
 * paddings; returns the result, with v, *used (bytes read) and msg. */
static int check_num(numfn *fn, numfn *ref, size_t nv, const char *text, size_t elen, uint64_t *v,
		     size_t *used, char *msg)
{
	int ret = 0;
	for (int pad = 0; pad < 2; pad++) {
		char *b = line_buf(text, pad ? ']' : 0);
		const char *e = b + (elen ? elen : strlen(text));
		struct rd t, u;
		rd_init(&t);
		rd_init(&u);
		const char *s = b, *rs = b;
		uint64_t rv[4] = { 0 };
		memset(v, 0, nv * sizeof(*v));
		int rc = fn(&t.r, &s, e, v);
		int rrc = ref(&u.r, &rs, e, rv);
		if (rc != rrc || (!rc && (memcmp(v, rv, nv * sizeof(*v)) || s != rs)) ||
		    (rc && strcmp(t.d.msg, u.d.msg)))
			fail_msg("'%s': %d after %zu '%s', reference %d after %zu '%s'", text, rc,
				 (size_t)(s - b), t.d.msg, rrc, (size_t)(rs - b), u.d.msg);
		ret = rc;
		*used = (size_t)(s - b);
		strcpy(msg, t.d.msg);
		rd_release(&t);
		rd_release(&u);
		free(b);
	}
	return ret;
}

/* jh_parse_dec against jh_parse_dec_slow. */
static int check_dec(const char *text, size_t elen, uint64_t *v, size_t *used, char *msg)
{
	return check_num(jh_parse_dec, jh_parse_dec_slow, 1, text, elen, v, used, msg);
}

static void test_dec(void **state)
{
	(void)state;
	static const char *const ends[] = { "", ":", " ", "]", "\t", ": 5 [0: 0]", "x" };
	uint64_t v;
	size_t used;
	char msg[1024];
	/* 1..20 digits */
	for (int n = 1; n <= 20; n++)
		for (size_t k = 0; k < JH_ARRAY_SIZE(ends); k++) {
			char text[64];
			uint64_t x = 0;
			for (int i = 0; i < n; i++) {
				text[i] = (char)('1' + (i * 3 + n) % 9);
				x = x * 10 + (uint64_t)(text[i] - '0');
			}
			strcpy(text + n, ends[k]);
			assert_int_equal(check_dec(text, 0, &v, &used, msg), n < 20 ? 0 : -1);
			if (n < 20) {
				assert_true(v == x);
				assert_int_equal(used, n);
			} else {
				text[n] = 0;
				char want[128];
				snprintf(want, sizeof(want), "t: number '%s' out of range", text);
				assert_string_equal(msg, want);
			}
		}
	assert_int_equal(check_dec("18446744073709551615", 0, &v, &used, msg), 0);
	assert_true(v == UINT64_MAX && used == 20);
	assert_int_equal(check_dec("00000000000000000000000000042]", 0, &v, &used, msg), 0);
	assert_true(v == 42 && used == 29);
	assert_int_equal(check_dec("0", 0, &v, &used, msg), 0);
	assert_true(v == 0 && used == 1);
	assert_int_equal(check_dec("1234567: ", 3, &v, &used, msg), 0); /* e inside */
	assert_true(v == 123 && used == 3);
	assert_int_equal(check_dec("12", 1, &v, &used, msg), 0);
	assert_true(v == 1 && used == 1);
	assert_int_equal(check_dec("18446744073709551616", 0, &v, &used, msg), -1);
	assert_string_equal(msg, "t: number '18446744073709551616' out of range");
	assert_int_equal(check_dec("99999999999999999999999 ", 0, &v, &used, msg), -1);
	assert_string_equal(msg, "t: number '99999999999999999999999' out of range");
	assert_int_equal(check_dec("-5: 1", 0, &v, &used, msg), -1);
	assert_string_equal(msg, "t: bad number '-5:'");
	assert_int_equal(check_dec("", 0, &v, &used, msg), -1);
	assert_string_equal(msg, "t: bad number ''");
	assert_int_equal(check_dec("12", 0, &v, &used, msg), 0);
	assert_int_equal(check_dec("/", 0, &v, &used, msg), -1);    /* '0' - 1 */
	assert_int_equal(check_dec(":", 0, &v, &used, msg), -1);    /* '9' + 1 */
	assert_int_equal(check_dec("5\xb0", 0, &v, &used, msg), 0); /* '0' | 0x80 */
	assert_true(v == 5 && used == 1);
	assert_int_equal(check_dec("123\xb5", 0, &v, &used, msg), 0);
	assert_true(v == 123 && used == 3);
}

/* The original jh_parse_quad, the slow number parser in it. */
static int ref_quad(struct jh_reader *r, const char **sp, const char *e, uint64_t v[4])
{
	static const char fmt[] = "bad count line: expected '<objs>: <bytes> [<objs>: <bytes>]'";
	const char *s = *sp;
	if (jh_parse_dec_slow(r, &s, e, &v[0]) || jh_expect(r, &s, e, ':', fmt) ||
	    jh_parse_space(r, &s, e, fmt) || jh_parse_dec_slow(r, &s, e, &v[1]) ||
	    jh_parse_space(r, &s, e, fmt) || jh_expect(r, &s, e, '[', fmt))
		return -1;
	s = jh_skip_space(s, e);
	if (jh_parse_dec_slow(r, &s, e, &v[2]) || jh_expect(r, &s, e, ':', fmt) ||
	    jh_parse_space(r, &s, e, fmt) || jh_parse_dec_slow(r, &s, e, &v[3]) ||
	    jh_expect(r, &s, e, ']', fmt))
		return -1;
	*sp = s;
	return 0;
}

/* jh_parse_quad against ref_quad. */
static int check_quad(const char *text, size_t elen, uint64_t v[4], size_t *used, char *msg)
{
	return check_num(jh_parse_quad, ref_quad, 4, text, elen, v, used, msg);
}

static void test_quad(void **state)
{
	(void)state;
	uint64_t v[4];
	size_t used;
	char msg[1024];
	static const char bad[] = "t: bad count line: expected '<objs>: <bytes> [<objs>: <bytes>]'";
	assert_int_equal(check_quad("2: 256 [23: 2944]", 0, v, &used, msg), 0);
	assert_true(v[0] == 2 && v[1] == 256 && v[2] == 23 && v[3] == 2944 && used == 17);
	assert_int_equal(check_quad("1234567: 7654321 [1000000: 9999999] main", 0, v, &used, msg),
			 0);
	assert_true(v[0] == 1234567 && v[3] == 9999999 && used == 35);
	assert_int_equal(
		check_quad("12345678: 123456789 [0: 18446744073709551615]", 0, v, &used, msg), 0);
	assert_true(v[0] == 12345678 && v[1] == 123456789 && v[2] == 0 && v[3] == UINT64_MAX);
	assert_int_equal(check_quad("5:\t 100 \t[ \t0:  0]", 0, v, &used, msg), 0);
	assert_true(v[0] == 5 && v[1] == 100 && v[2] == 0 && v[3] == 0 && used == 18);
	static const struct {
		const char *text;
		size_t elen; /* the line's end (0: all of it) */
		const char *msg;
	} errs[] = {
		{ "1: 2 [3: 4]", 10, bad }, /* e before ']' */
		{ "1: 2 [3: 45]", 10, bad },
		{ "1: 2 [3: 4", 0, bad },
		{ "5:100 [0: 0]", 0, bad },
		{ "5: 100 [0: 0 ]", 0, bad },
		{ "5: 1x0 [0: 0]", 0, bad },
		{ "5: 100 [-1: 0]", 0, "t: bad number '-1:'" },
		{ "5: 100 [1: 18446744073709551616]", 0,
		  "t: number '18446744073709551616' out of range" },
	};
	for (size_t i = 0; i < JH_ARRAY_SIZE(errs); i++) {
		assert_int_equal(check_quad(errs[i].text, errs[i].elen, v, &used, msg), -1);
		assert_string_equal(msg, errs[i].msg);
	}
}

/* Random count lines (usual and unusual spacing, 1..21 digits, stray
 * bytes, cut anywhere): jh_parse_quad agrees with ref_quad, jh_parse_dec
 * with jh_parse_dec_slow. */
static void test_quad_random(void **state)
{
	(void)state;
	static const char *const seps[][3] = {
		{ ": ", " [", ": " }, { ":  ", "\t[ ", ":\t" }, { ":", " [", ": " },
		{ ": ", "[", ": " },  { ": ", " ]", ": " },     { " : ", " [", ": " },
	};
	uint64_t seed = 777;
	for (int iter = 0; iter < 20000; iter++) {
		char text[160];
		size_t o = 0;
		for (int k = 0; k < 4; k++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			unsigned x = (unsigned)(seed >> 33);
			size_t nd = x % 8 ? 1 + (x >> 3) % 8 : 1 + (x >> 3) % 21;
			for (size_t i = 0; i < nd; i++)
				text[o++] = (char)('0' + (x >> (i % 20)) % 10);
			if (x % 97 == 0)
				text[o++] = "x/:\x80"[(x >> 7) % 4];
			if (k < 3) {
				const char *sep = seps[x % 61 < 55 ? 0 : (x >> 9) % 6][k];
				o += (size_t)sprintf(text + o, "%s", sep);
			}
		}
		text[o++] = ']';
		text[o] = 0;
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		size_t elen = seed >> 60 ? 0 : (size_t)(seed >> 40) % o + 1;
		uint64_t v[4], dv;
		size_t used;
		char msg[1024];
		check_quad(text, elen, v, &used, msg);
		check_dec(text, elen, &dv, &used, msg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hex_cases),   cmocka_unit_test(test_hex_lengths),
		cmocka_unit_test(test_stack_lines), cmocka_unit_test(test_hex_random),
		cmocka_unit_test(test_dec),         cmocka_unit_test(test_quad),
		cmocka_unit_test(test_quad_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
