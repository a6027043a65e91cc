/*
 * symscan.c: the SSE2 and AVX2 line scanners give what the byte-by-byte
 * one gives (stop byte, separators, the room limit), whose separators split
 * names as jh_names_part does; the symbol reader, which takes the parts
 * from the scan, stores the parts jh_names_part makes of every line.
 */
#include "readers_test.h"

#include "jeheap/parse.h"
#include "symscan.h"

struct impl {
	const char *name;
	jh_symscan_fn *fn;
};

static size_t impls(struct impl *v)
{
	size_t n = 0;
	v[n++] = (struct impl){"dispatch", jh_symscan_line};
	v[n++] = (struct impl){"best", jh_symscan_best()};
#ifdef JH_SYMSCAN_X86
	v[n++] = (struct impl){"sse2", jh_symscan_line_sse2};
	if (__builtin_cpu_supports("avx2"))
		v[n++] = (struct impl){"avx2", jh_symscan_line_avx2};
#endif
	return n;
}

#define MAXSEP 600

/* Every version on s (readable up to its stop byte + JH_SYMSCAN_PAD) with
 * room for 0, 1, 2 and all separators, against the scalar one. */
static void check_scan(const char *s)
{
	static uint32_t want[MAXSEP], got[MAXSEP + 1];
	size_t wn, gn, rooms[] = {0, 1, 2, MAXSEP};
	const char *ws = jh_symscan_line_scalar(s, want, MAXSEP, &wn);
	assert_true(wn <= MAXSEP);
	struct impl v[5];
	size_t ni = impls(v);
	for (size_t i = 0; i < ni; i++) {
		for (size_t r = 0; r < sizeof(rooms) / sizeof(rooms[0]); r++) {
			memset(got, 0xee, sizeof(got));
			const char *gs = v[i].fn(s, got, rooms[r], &gn);
			if (gs != ws || gn != wn)
				fail_msg("%s: stop %td, %zu seps; expected %td, %zu", v[i].name,
					 gs - s, gn, ws - s, wn);
			size_t k = wn < rooms[r] ? wn : rooms[r];
			for (size_t j = 0; j < k; j++)
				assert_int_equal(got[j], want[j]);
			assert_int_equal(got[k], 0xeeeeeeeeu); /* nothing past the room */
		}
	}
}

/* The parts of s[0..n) as jh_names_part splits them and as the scalar
 * separators do. */
static void check_parts(const char *s, size_t n)
{
	static uint32_t seps[MAXSEP];
	size_t ns;
	const char *stop = jh_symscan_line_scalar(s, seps, MAXSEP, &ns);
	assert_ptr_equal(stop, s + n);
	const char *e = s + n, *p = s, *next;
	size_t k = 0, from = 0;
	do {
		const char *pe = jh_names_part(p, e, &next);
		size_t to = k < ns ? seps[k] : n;
		assert_true(k <= ns);
		assert_int_equal(p - s, from);
		assert_int_equal(pe - s, to);
		from = to + 2;
		k++;
		p = next;
	} while (p);
	assert_int_equal(k, ns + 1);
}

/* A buffer of n bytes of fill with JH_SYMSCAN_PAD more, 64-byte aligned. */
static char *padded(size_t n, char fill)
{
	char *b = aligned_alloc(64, (n + JH_SYMSCAN_PAD + 63) / 64 * 64);
	memset(b, fill, n + JH_SYMSCAN_PAD);
	return b;
}

/* A "--", "---" or "-" at every offset of lines of every length up to 140,
 * at several alignments: over the 16-, 32- and 64-byte edges, at the line's
 * end, in lines shorter than a block; '\n' or NUL ending them. */
static void test_edges(void **state)
{
	(void)state;
	static const char *const marks[] = {"--", "---", "-", "----", "-a--"};
	static const size_t aligns[] = {0, 1, 15, 31, 63};
	char *b = padded(256, 'a');
	for (size_t a = 0; a < sizeof(aligns) / sizeof(aligns[0]); a++) {
		char *s = b + aligns[a];
		for (size_t len = 0; len <= 140; len++) {
			for (size_t m = 0; m < sizeof(marks) / sizeof(marks[0]); m++) {
				size_t ml = strlen(marks[m]);
				for (size_t at = 0; at + ml <= len; at++) {
					memset(b, 'a', 256);
					memcpy(s + at, marks[m], ml);
					s[len] = (len + at) % 2 ? '\n' : 0;
					/* what follows the stop must not count */
					memset(s + len + 1, '-', 8);
					check_scan(s);
					check_parts(s, len);
				}
			}
			memset(b, 'a', 256);
			s[len] = '\n';
			check_scan(s);
		}
	}
	/* the stop right after a dash run ending a 64-byte step */
	memset(b, '-', 256);
	b[64] = '\n';
	check_scan(b);
	check_parts(b, 64);
	b[64] = '-';
	b[65] = 0;
	check_scan(b);
	check_parts(b, 65);
	free(b);
}

static unsigned long rnd_state = 12345;
static unsigned rnd(void)
{
	rnd_state = rnd_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(rnd_state >> 33);
}

/* Mostly '-' and letters, and the bytes that share a low nibble with '-',
 * '\n' or NUL (the AVX2 table lookup), bytes >= 0x80, '\r'. */
static char rnd_byte(void)
{
	static const unsigned char odd[] = {0x0d, 0x1a, 0x3d, 0x2a, 0x10, 0x80, 0x8a, 0xad,
					    0xfd, 0xff, '\r', ' ', 0x20, 0x30, 0x6d, 0x5d};
	unsigned r = rnd() % 10;
	return r < 4 ? '-' : r < 8 ? (char)('a' + rnd() % 26) : (char)odd[rnd() % sizeof(odd)];
}

static void test_random(void **state)
{
	(void)state;
	char *b = padded(1200, 'x');
	for (int t = 0; t < 20000; t++) {
		size_t off = rnd() % 64, len = rnd() % (t % 10 ? 300 : 1000);
		char *s = b + off;
		for (size_t i = 0; i < len + JH_SYMSCAN_PAD; i++)
			s[i] = rnd_byte();
		s[len] = rnd() % 2 ? '\n' : 0;
		if (rnd() % 2) /* another stop soon after */
			s[len + 1 + rnd() % 40] = rnd() % 2 ? '\n' : 0;
		check_scan(s);
		check_parts(s, len);
	}
	free(b);
}

/* A random name list: starts with a non-space, never ends with '\r'. */
static void rnd_names(struct jh_sb *sb, size_t n)
{
	static const char al[] = "ab-:(- <>-\r";
	jh_sb_addc(sb, "xyz-"[rnd() % 4]);
	for (size_t i = 1; i < n; i++)
		jh_sb_addc(sb, al[rnd() % (sizeof(al) - (i + 1 == n ? 2 : 1))]);
}

/* The symbol reader: lines over window refills (well over 128 KiB),
 * CRLF, more separators than the first room (64), dash runs, parts as
 * jh_names_part makes them; without split_symbols the whole names. */
static void test_reader_parts(void **state)
{
	(void)state;
	enum { NL = 6000 };
	struct jh_sb text, *names = calloc(NL, sizeof(*names));
	jh_sb_init(&text);
	jh_sb_addf(&text, "--- symbol\nbinary=/x\n");
	for (size_t i = 0; i < NL; i++) {
		jh_sb_init(&names[i]);
		if (i % 500 == 7) { /* 300 separators */
			for (int k = 0; k < 300; k++)
				jh_sb_addf(&names[i], "f%d--", k);
			jh_sb_addc(&names[i], 'z');
		} else if (i % 97 == 3) {
			jh_sb_addf(&names[i], "----a---b--");
		} else {
			rnd_names(&names[i], 1 + rnd() % (i % 10 ? 120 : 900));
		}
		jh_sb_addf(&text, "0x%zx %s%s", 0x1000 + i, names[i].buf, i % 3 ? "\n" : "\r\n");
	}
	jh_sb_addf(&text, "---\n--- heap\nheap_v2/1\n  t*: 1: 1 [0: 0]\n@ 0x1000\n"
			  "  t*: 1: 1 [0: 0]\n");
	assert_true(text.len > 3 * 128 * 1024);
	for (int split = 0; split < 2; split++) {
		struct jh_profile p;
		struct jh_diag d = {{0}, 0};
		jh_profile_init(&p);
		p.split_symbols = split;
		assert_int_equal(jh_profile_read_mem(&p, text.buf, text.len, "t", &d), 0);
		assert_int_equal(p.nsyms, NL);
		for (size_t i = 0; i < NL; i++) {
			const struct jh_symname *sym = &p.syms[i];
			assert_int_equal(sym->pc, 0x1000 + i);
			if (!split) {
				assert_string_equal(sym->names, names[i].buf);
				continue;
			}
			const char *s = names[i].buf, *e = s + names[i].len, *next;
			uint32_t k = 0;
			do {
				const char *pe = jh_names_part(s, e, &next);
				assert_true(k < sym->nparts);
				size_t len;
				uint64_t h;
				const char *part = jh_profile_sym_part(&p, p.sym_frames[sym->first + k],
								       &len, &h);
				assert_int_equal(len, pe - s);
				assert_memory_equal(part, s, len);
				assert_int_equal(h, jh_hash_str(s, len));
				k++;
				s = next;
			} while (s);
			assert_int_equal(k, sym->nparts);
		}
		jh_profile_release(&p);
	}
	for (size_t i = 0; i < NL; i++)
		jh_sb_release(&names[i]);
	free(names);
	jh_sb_release(&text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_reader_parts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
