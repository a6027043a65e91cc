/*
 * symscan.c - the line scanner of symscan.h: 64 bytes per step, all tested
 * for '\n', NUL and '-' at once (AVX2: one table lookup and compare per 32
 * bytes; SSE2: two xors and minimums per 16), and only the steps holding
 * one of them (usually the line's separator and its end) are looked at
 * bit by bit.
 */
#include "symscan.h"

#ifdef JH_SYMSCAN_X86
#include <immintrin.h>
#endif

/*
 * The separators among the '-' bytes of the 64 at offset off (bit i = byte
 * off + i): a pair ends at every '-' that follows one (*carry: the last
 * byte of the step before was a '-'); a pair starting before *next (inside
 * the separator before) does not count.
 */
static inline __attribute__((always_inline)) void take_seps(uint64_t dash, uint64_t *carry,
							    size_t off, size_t *next,
							    uint32_t *seps, size_t max, size_t *k)
{
	uint64_t ends = dash & (dash << 1 | *carry);
	*carry = dash >> 63;
	for (; ends; ends &= ends - 1) {
		size_t start = off + (size_t)__builtin_ctzll(ends) - 1;
		if (start < *next)
			continue;
		if (*k < max)
			seps[*k] = (uint32_t)start;
		++*k;
		*next = start + 2;
	}
}

/* The step at off holds a stop (bits stop) or '-' bytes (bits dash):
 * returns the stop byte, or NULL to go on. */
static inline __attribute__((always_inline)) const char *
scan_step(const char *s, size_t off, uint64_t stop, uint64_t dash, uint64_t *carry, size_t *next,
	  uint32_t *seps, size_t max, size_t *k, size_t *nseps)
{
	if (stop)
		dash &= (stop & -stop) - 1; /* the '-' bytes before it */
	take_seps(dash, carry, off, next, seps, max, k);
	if (!stop)
		return NULL;
	*nseps = *k;
	return s + off + (size_t)__builtin_ctzll(stop);
}

const char *jh_symscan_line_scalar(const char *s, uint32_t *seps, size_t max, size_t *nseps)
{
	const char *p = s;
	size_t k = 0;
	for (; *p != '\n' && *p; p++) {
		if (p[0] == '-' && p[1] == '-') {
			if (k < max)
				seps[k] = (uint32_t)(p - s);
			k++;
			p++;
		}
	}
	*nseps = k;
	return p;
}

#ifdef JH_SYMSCAN_X86
static inline uint64_t mask16(__m128i eq, int i)
{
	return (uint64_t)(uint32_t)_mm_movemask_epi8(eq) << (16 * i);
}

const char *jh_symscan_line_sse2(const char *s, uint32_t *seps, size_t max, size_t *nseps)
{
	const __m128i nl = _mm_set1_epi8('\n'), dash = _mm_set1_epi8('-'), zero = _mm_setzero_si128();
	uint64_t carry = 0;
	size_t next = 0, k = 0;
	for (size_t off = 0;; off += 64) {
		__m128i x[4], t[4];
		for (int i = 0; i < 4; i++) {
			x[i] = _mm_loadu_si128((const __m128i *)(const void *)(s + off + 16 * i));
			/* 0 where x is '\n', NUL or '-' */
			t[i] = _mm_min_epu8(_mm_min_epu8(x[i], _mm_xor_si128(x[i], nl)),
					    _mm_xor_si128(x[i], dash));
		}
		__m128i m = _mm_min_epu8(_mm_min_epu8(t[0], t[1]), _mm_min_epu8(t[2], t[3]));
		if (!_mm_movemask_epi8(_mm_cmpeq_epi8(m, zero))) {
			carry = 0;
			continue;
		}
		uint64_t stop = 0, d = 0;
		for (int i = 0; i < 4; i++) {
			__m128i sx = _mm_min_epu8(x[i], _mm_xor_si128(x[i], nl));
			stop |= mask16(_mm_cmpeq_epi8(sx, zero), i);
			d |= mask16(_mm_cmpeq_epi8(x[i], dash), i);
		}
		const char *r = scan_step(s, off, stop, d, &carry, &next, seps, max, &k, nseps);
		if (r)
			return r;
	}
}

__attribute__((target("avx2"))) const char *jh_symscan_line_avx2(const char *s, uint32_t *seps,
							     size_t max, size_t *nseps)
{
	/* by low nibble: the byte of interest with it ('\0', '\n', '-'), else
	 * one with another low nibble (bytes >= 0x80 look up 0) */
	const __m256i tbl = _mm256_setr_epi8(0, -128, -128, -128, -128, -128, -128, -128, -128,
					     -128, '\n', -128, -128, '-', -128, -128, 0, -128,
					     -128, -128, -128, -128, -128, -128, -128, -128, '\n',
					     -128, -128, '-', -128, -128);
	const __m256i dash = _mm256_set1_epi8('-');
	uint64_t carry = 0;
	size_t next = 0, k = 0;
	for (size_t off = 0;; off += 64) {
		__m256i x0 = _mm256_loadu_si256((const __m256i *)(const void *)(s + off));
		__m256i x1 = _mm256_loadu_si256((const __m256i *)(const void *)(s + off + 32));
		__m256i h0 = _mm256_cmpeq_epi8(_mm256_shuffle_epi8(tbl, x0), x0);
		__m256i h1 = _mm256_cmpeq_epi8(_mm256_shuffle_epi8(tbl, x1), x1);
		__m256i h = _mm256_or_si256(h0, h1);
		if (_mm256_testz_si256(h, h)) {
			carry = 0;
			continue;
		}
		uint64_t hit = (uint32_t)_mm256_movemask_epi8(h0) |
			       (uint64_t)(uint32_t)_mm256_movemask_epi8(h1) << 32;
		uint64_t d = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x0, dash)) |
			     (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x1, dash))
				     << 32;
		const char *r = scan_step(s, off, hit & ~d, d, &carry, &next, seps, max, &k, nseps);
		if (r)
			return r;
	}
}
#endif

jh_symscan_fn *jh_symscan_best(void)
{
#ifdef JH_SYMSCAN_X86
	return __builtin_cpu_supports("avx2") ? jh_symscan_line_avx2 : jh_symscan_line_sse2;
#else
	return jh_symscan_line_scalar;
#endif
}

const char *jh_symscan_line(const char *s, uint32_t *seps, size_t max, size_t *nseps)
{
	return jh_symscan_best()(s, seps, max, nseps);
}
