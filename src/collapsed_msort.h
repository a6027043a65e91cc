/* collapsed_msort.h - the merge sort of collapsed_sort.c's keys. */
#ifndef JEHEAP_COLLAPSED_MSORT_H
#define JEHEAP_COLLAPSED_MSORT_H

#include <stddef.h>
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
	/* merges the runs of w of src[0..n) into dst */                              \
	static void name##_pass(const T *src, T *dst, size_t n, size_t w)             \
	{                                                                               \
		for (size_t lo = 0; lo < n; lo += 2 * w) {                                  \
			size_t mid = lo + w < n ? lo + w : n;                                   \
			size_t hi = lo + 2 * w < n ? lo + 2 * w : n;                            \
			/* from both ends at once (two independent chains): the front   \
			 * takes the smaller half, the back the larger */                 \
			size_t i = lo, j = mid, k = lo, ie = mid, je = hi, ke = hi;             \
			size_t nb = (hi - lo) / 2, nf = hi - lo - nb;                           \
			for (size_t t = 0; t < nf; t++) {                                       \
				int r_ = i == mid || (j < hi && !le(&src[i], &src[j]));             \
				const T *p_ = r_ ? &src[j] : &src[i];                               \
				dst[k++] = *p_;                                                     \
				j += r_;                                                            \
				i += !r_;                                                           \
				if (t < nb) {                                                       \
					int l_ = je == mid || (ie > lo && !le(&src[ie - 1], &src[je - 1])); \
					const T *q_ = l_ ? &src[ie - 1] : &src[je - 1];                 \
					dst[--ke] = *q_;                                                \
					ie -= l_;                                                       \
					je -= !l_;                                                      \
				}                                                                   \
			}                                                                       \
		}                                                                           \
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

#endif
