/*
 * libFuzzer target: a unit's tables as the symbol cache's unit index holds
 * them (dwarf_units.h), uncompressed, i.e. what a blob whose zstd checksum
 * holds may say. A blob that decodes is then answered for addresses at and
 * around each of its ranges and line rows, as jh_unit_index_lookup does:
 * nothing may read out of bounds or loop. Seeds: tests/fuzz/make-units-seeds.sh.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf_units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *namer(void *ctx, uint64_t node, uint32_t *decl_line)
{
	const struct jh_unitblob *b = ctx;
	*decl_line = b->decls[node];
	return b->names[node];
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jh_unitblob b;
	if (jh_unitblob_decode(data, size, &b) != 0)
		return 0;
	size_t na = 0, cap = 3 * (b.t.w.rv.n + b.t.lt.nrows) + 1;
	uint64_t *qa = malloc(cap * sizeof(*qa)), *leaf = malloc(cap * sizeof(*leaf));
	for (size_t i = 0; i < b.t.w.rv.n; i++) {
		qa[na++] = b.t.w.rv.v[i].lo;
		qa[na++] = b.t.w.rv.v[i].hi - 1;
		qa[na++] = b.t.w.rv.v[i].lo + (b.t.w.rv.v[i].hi - b.t.w.rv.v[i].lo) / 2;
	}
	for (size_t i = 0; i < b.t.lt.nrows; i++) {
		qa[na++] = b.t.lt.rows[i].addr;
		qa[na++] = b.t.lt.rows[i].addr + 1;
		qa[na++] = b.t.lt.rows[i].addr - 1;
	}
	qsort(qa, na, sizeof(*qa), cmp_u64);
	jh_sched_cover_sorted(b.t.w.rv.v, b.t.w.rv.n, qa, na, leaf);
	struct jh_intern strings;
	struct jh_u64map display;
	jh_intern_init(&strings);
	jh_u64map_init(&display);
	struct jh_batch_task k = { 0 };
	for (size_t i = 0; i < na; i++) {
		struct jh_batch_query q = { qa[i], i, 0, 0, 0 };
		jh_batch_answer(&k, &q, &b.t, leaf[i], &strings, &display, namer, &b);
		if (q.first + q.n > k.nframes)
			abort();
	}
	free(k.frames);
	jh_u64map_release(&display);
	jh_intern_release(&strings);
	free(qa);
	free(leaf);
	jh_unitblob_release(&b);
	return 0;
}
