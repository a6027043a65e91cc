/*
 * symscan.h - one pass over a symbol-section line: finds its end (the first
 * '\n' or NUL byte) and the "--" separators of its names at once, instead
 * of a search for the newline and another for the separators.
 */
#ifndef JEHEAP_SYMSCAN_H
#define JEHEAP_SYMSCAN_H

#include <stddef.h>
#include <stdint.h>

/* Bytes after the stop byte (the '\n' or NUL) that jh_symscan_line may read. */
#define JH_SYMSCAN_PAD 64

/*
 * Scans s up to its first '\n' or NUL byte and returns it. The offsets
 * from s of the separators before it, the leftmost "--" and then the
 * leftmost one after it (Perl's split /--/, as jh_names_part: "a---b" is
 * "a", "-b"), are stored in seps[0 .. max) in ascending order; *nseps is
 * their number, which may be more than max (the rest are not stored).
 * Reads up to JH_SYMSCAN_PAD bytes after the stop byte, which must be readable.
 */
typedef const char *jh_symscan_fn(const char *s, uint32_t *seps, size_t max, size_t *nseps);
/* The fastest version for this CPU; jh_symscan_best returns it (for loops
 * that call it often). */
jh_symscan_fn jh_symscan_line;
jh_symscan_fn *jh_symscan_best(void);
/* The byte-by-byte version (any CPU; the reference of the tests). */
jh_symscan_fn jh_symscan_line_scalar;
#if defined(__x86_64__) && !defined(JH_SYMSCAN_NO_SIMD) /* (-D: test the portable one) */
#define JH_SYMSCAN_X86 1
/* Versions for x86-64: SSE2 (every such CPU) and AVX2 (only where
 * __builtin_cpu_supports("avx2")). */
jh_symscan_fn jh_symscan_line_sse2;
jh_symscan_fn jh_symscan_line_avx2;
#endif

#endif
