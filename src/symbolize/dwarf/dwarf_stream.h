/*
 * dwarf_stream.h - unit boundaries of a .debug_info that is still being
 * inflated (sections.h, jh_sections_stream), so a reader can wait for
 * exactly the unit it is about to read. No libdwarf.
 *
 * Units are found by walking their headers' unit_length from offset 0 as
 * the bytes arrive. If a header makes no sense (corrupt input), the walk
 * stops and every later wait is for the whole section.
 */
#ifndef JEHEAP_DWARF_STREAM_H
#define JEHEAP_DWARF_STREAM_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "sections.h"

struct jh_units {
	const struct jh_sections *s;
	size_t idx;                /* the section's index in s */
	const unsigned char *data; /* its (partial) bytes */
	uint64_t size;
	pthread_mutex_t lock; /* the fields below */
	uint64_t *start;      /* known unit starts, ascending */
	size_t n, a;
	uint64_t next; /* where the first unit not yet known starts */
	int broken;
};

/*
 * Starts streaming section idx when that pays: compressed, at least 16 MB,
 * and a second core for the inflate. 0 when started, else -1.
 * JH_DWARF_STREAM (tests): off; on (any size, small chunks); guard (also
 * PROT_NONE past the final bytes, see jh_sections_stream).
 */
int jh_units_stream(const struct jh_sections *s, size_t idx);
void jh_units_init(struct jh_units *u, const struct jh_sections *s, size_t idx);
void jh_units_release(struct jh_units *u);
/*
 * Blocks until the whole unit holding section offset off is inflated and
 * gives its bounds [*lo, *hi) (after a broken header: [that header, end of
 * section)). Returns 0, or -1 when off is past the end or the inflate
 * failed before that unit's end (its bytes must not be read).
 */
int jh_units_wait(struct jh_units *u, uint64_t off, uint64_t *lo, uint64_t *hi);
/*
 * Offset of the first DIE of the (final) unit [lo, hi) after its header, as
 * libdwarf computes it, or UINT64_MAX for a header it does not know.
 */
uint64_t jh_units_die_off(const struct jh_units *u, uint64_t lo, uint64_t hi);

#endif
