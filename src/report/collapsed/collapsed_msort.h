/* collapsed_msort.h - the merge sort of collapsed_sort.c's keys. */
#ifndef JEHEAP_COLLAPSED_MSORT_H
#define JEHEAP_COLLAPSED_MSORT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Elements of T sorted a block at a time before blocks are merged: a
 * block and its scratch take 256 KiB (half a core's L2 here). */
#define JH_MSORT_BLOCK(T) ((size_t)1 << (63 - __builtin_clzll((128 << 10) / sizeof(T) | 8)))

/*
 * JH_MSORT(name, T, le): a stable merge sort of T a[0..n) with a scratch
 * array tmp[0..n); le(x, y) (pointers to T) says whether x may come before
 * y. Comparisons are inlined (qsort's calls through a pointer cost more
 * than the comparisons themselves here) and merges do not branch on the
 * order. Runs of 4 are insertion-sorted, then merged pairwise; the merges
 * within a block of JH_MSORT_BLOCK(T) are all done block by block (while
 * it is in cache), the same merges as pass by pass over the whole array.
 */
#define JH_MSORT(name, T, le)                                                       \
	/* merges src[lo..mid) and src[mid..hi) into dst[lo..hi) */                 \
	static inline void name##_merge(const T *src, size_t lo, size_t mid, size_t hi, T *dst) \
	{                                                                               \
		/* from both ends at once (two independent chains): the front   \
		 * takes the smaller half, the back the larger */                 \
		size_t i = lo, j = mid, k = lo, ie = mid, je = hi, ke = hi;                 \
		size_t nb = (hi - lo) / 2, nf = hi - lo - nb;                               \
		for (size_t t = 0; t < nf; t++) {                                           \
			int r_ = i == mid || (j < hi && !le(&src[i], &src[j]));                 \
			const T *p_ = r_ ? &src[j] : &src[i];                                   \
			dst[k++] = *p_;                                                         \
			j += r_;                                                                \
			i += !r_;                                                               \
			if (t < nb) {                                                           \
				int l_ = je == mid || (ie > lo && !le(&src[ie - 1], &src[je - 1])); \
				const T *q_ = l_ ? &src[ie - 1] : &src[je - 1];                     \
				dst[--ke] = *q_;                                                    \
				ie -= l_;                                                           \
				je -= !l_;                                                          \
			}                                                                       \
		}                                                                           \
	}                                                                               \
	/* merges the runs of w of src[0..n) into dst */                              \
	static void name##_pass(const T *src, T *dst, size_t n, size_t w)             \
	{                                                                               \
		for (size_t lo = 0; lo < n; lo += 2 * w)                                    \
			name##_merge(src, lo, lo + w < n ? lo + w : n, lo + 2 * w < n ? lo + 2 * w : n, dst); \
	}                                                                               \
	/* the passes of widths w to below wend from src[0..n) through dst; 1 if \
	 * the result is in dst */                                                \
	static int name##_passes(T *src, size_t n, T *dst, size_t w, size_t wend)    \
	{                                                                               \
		int in_dst = 0;                                                             \
		for (; w < wend; w *= 2) {                                                  \
			name##_pass(src, dst, n, w);                                            \
			T *t = src;                                                             \
			src = dst;                                                              \
			dst = t;                                                                \
			in_dst = !in_dst;                                                       \
		}                                                                           \
		return in_dst;                                                              \
	}                                                                               \
	static void name(T *a, size_t n, T *tmp)                                        \
	{                                                                               \
		for (size_t lo = 0; lo < n; lo += 4) { /* insertion-sorted runs */          \
			size_t hi = lo + 4 < n ? lo + 4 : n;                                    \
			for (size_t i = lo + 1; i < hi; i++) {                                  \
				T x = a[i];                                                         \
				size_t j = i;                                                       \
				for (; j > lo && !le(&a[j - 1], &x); j--)                           \
					a[j] = a[j - 1];                                                \
				a[j] = x;                                                           \
			}                                                                       \
		}                                                                           \
		size_t b = JH_MSORT_BLOCK(T), w = 4;                                        \
		int in_tmp = 0;                                                             \
		if (n > b) { /* every block the same passes (the last one's may copy) */ \
			for (size_t lo = 0; lo < n; lo += b)                                    \
				in_tmp = name##_passes(a + lo, n - lo < b ? n - lo : b, tmp + lo, 4, b); \
			w = b;                                                                  \
		}                                                                           \
		if (in_tmp ? !name##_passes(tmp, n, a, w, n) : name##_passes(a, n, tmp, w, n)) \
			memcpy(a, tmp, n * sizeof(*a));                                         \
	}

/*
 * JH_MSD_SORT(name, T, key, msort, ties): sorts T a[0..n) (scratch
 * tmp[0..n)) as msort (a JH_MSORT) does, where le orders elements of
 * different keys (key(x): an unsigned __int128) as the keys: most
 * significant digit first on the keys' highest bits that differ, up to
 * 2^11 buckets that are sorted the same way, msort for a few elements, or
 * for equal keys when ties (else they are left as they are). Not stable.
 */
#define JH_MSD_MIN 16
#define JH_MSD_SORT(name, T, key, msort, ties)                                         \
	/* the digit to split a[0..n) on, bits [*sh, *sh + bits) of the keys; 0 \
	 * when all keys are equal */                                             \
	static int name##_digit(const T *a, size_t n, int *sh)                       \
	{                                                                               \
		unsigned __int128 k0 = key(&a[0]), x = 0;                                   \
		for (size_t i = 1; i < n; i++)                                              \
			x |= key(&a[i]) ^ k0;                                                   \
		if (!x)                                                                     \
			return 0;                                                               \
		uint64_t xh = (uint64_t)(x >> 64);                                          \
		int top = xh ? 127 - __builtin_clzll(xh) : 63 - __builtin_clzll((uint64_t)x); \
		int bits = 64 - __builtin_clzll(n / 8); /* about 8 a bucket */            \
		bits = bits > 11 ? 11 : bits;                                               \
		*sh = top + 1 - bits > 0 ? top + 1 - bits : 0;                              \
		return bits;                                                                \
	}                                                                               \
	/* src[0..n) into dst by that digit; at[d]: the end of bucket d (n below \
	 * 2^32) */                                                               \
	static void name##_scatter(const T *src, size_t n, T *dst, int bits, int sh,  \
				   uint32_t *at)                                      \
	{                                                                               \
		size_t nb = (size_t)1 << bits, mask = nb - 1;                               \
		memset(at, 0, (nb + 1) * sizeof(*at));                                      \
		for (size_t i = 0; i < n; i++)                                              \
			at[((size_t)(key(&src[i]) >> sh) & mask) + 1]++;                        \
		for (size_t d = 1; d <= nb; d++)                                            \
			at[d] += at[d - 1];                                                     \
		for (size_t i = 0; i < n; i++)                                              \
			dst[at[(size_t)(key(&src[i]) >> sh) & mask]++] = src[i];                \
	}                                                                               \
	/* sorts src[0..n) into src (in_src) or into other, the other array      \
	 * scratch: buckets are scattered into other and sorted from there, with \
	 * no copy back (8 KiB of stack a level; levels of many elements go 11   \
	 * bits down each) */                                                     \
	static void name##_sort(T *src, size_t n, T *other, int in_src)              \
	{                                                                               \
		int sh, bits = n > JH_MSD_MIN ? name##_digit(src, n, &sh) : -1;             \
		if (bits <= 0) {                                                            \
			T *a = in_src ? src : other, *t = in_src ? other : src;                 \
			for (size_t i = 0; !in_src && i < n; i++)                               \
				other[i] = src[i];                                                  \
			if (bits < 0 || ties)                                                   \
				msort(a, n, t);                                                     \
			return;                                                                 \
		}                                                                           \
		uint32_t at[(1 << 11) + 1];                                                 \
		name##_scatter(src, n, other, bits, sh, at);                                \
		for (size_t d = 0, lo = 0; d < (size_t)1 << bits; lo = at[d++]) {           \
			if (at[d] - lo > 1)                                                     \
				name##_sort(other + lo, at[d] - lo, src + lo, !in_src);             \
			else if (at[d] > lo && in_src)                                          \
				src[lo] = other[lo];                                                \
		}                                                                           \
	}                                                                               \
	static void name(T *a, size_t n, T *tmp)                                        \
	{                                                                               \
		name##_sort(a, n, tmp, 1);                                                  \
	}

#endif
