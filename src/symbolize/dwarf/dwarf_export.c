/*
 * dwarf_export.c - every compile unit of a module's DWARF as a unit index
 * (dwarf_units.h): each unit walked for all its subroutines, named, and
 * compressed, on the lookup's worker threads. No libdwarf call of its own.
 */
#include "dwarf_internal.h"
#include "dwarf_units.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

struct exp {
	struct jh_dwarf *dw;
	struct jh_unit_index *ix;
	int level;
};

static void *exp_start(void *ctx)
{
	struct exp *e = ctx;
	return jh_dwh_get(e->dw);
}

static void exp_stop(void *ctx, void *w)
{
	(void)ctx;
	jh_dwh_put(w);
}

/* Compresses raw[0..n) as one zstd frame with its checksum; NULL on failure. */
static unsigned char *compress(const void *raw, size_t n, int level, uint64_t *out)
{
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	*out = 0;
	if (!cc)
		return NULL;
	size_t cap = ZSTD_compressBound(n);
	unsigned char *z = xmalloc(cap + 1);
	size_t zn = 0;
	if (ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, level)) ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1)) ||
	    ZSTD_isError(zn = ZSTD_compress2(cc, z, cap, raw, n))) {
		free(z);
		z = NULL;
	}
	ZSTD_freeCCtx(cc);
	*out = z ? zn : 0;
	return z;
}

static void exp_run(void *ctx, void *w, size_t i)
{
	struct exp *e = ctx;
	struct jh_dwh *h = w;
	const struct jh_cu *cu = &e->dw->cus[i];
	struct jh_unit_tables t;
	if (jh_dwh_tables(h, cu->hdr_off, cu->die_off, 0, 0, 0, NULL, JH_WALK_ALL, &t) == 0) {
		size_t nn = t.w.nnodes;
		const char **names = xmalloc(jh_st_mult(nn + 1, sizeof(*names)));
		uint32_t *decls = xmalloc(jh_st_mult(nn + 1, sizeof(*decls)));
		for (size_t j = 0; j < nn; j++) {
			decls[j] = 0;
			names[j] = jh_dwh_name(h, t.w.nodes[j].die_off, &decls[j]);
		}
		struct jh_sb raw = JH_SB_INIT;
		jh_sb_init(&raw);
		jh_unitblob_encode(&t, names, decls, &raw);
		e->ix->blob[i] = compress(raw.buf, raw.len, e->level, &e->ix->size[i]);
		jh_sb_release(&raw);
		free(names);
		free(decls);
	}
	jh_dwh_tables_release(h, &t);
}

static int cmp_hdr(const void *k, const void *c)
{
	uint64_t a = *(const uint64_t *)k, b = ((const struct jh_cu *)c)->hdr_off;
	return a < b ? -1 : a > b;
}

int jh_dwarf_export(struct jh_dwarf *dw, int jobs, int level, struct jh_unit_index *ix,
		    struct jh_diag *d)
{
	memset(ix, 0, sizeof(*ix));
	if (jh_dwarf_finish_index(dw) != 0)
		return jh_diag_set(d, JH_EXIT_INPUT, jh_sections_path(dw->main), 0,
				   "unusable DWARF");
	ix->nunits = dw->ncus;
	ix->blob = xcalloc(dw->ncus + 1, sizeof(*ix->blob));
	ix->size = xcalloc(dw->ncus + 1, sizeof(*ix->size));
	ix->ranges = xmalloc(jh_st_mult(dw->nranges + 1, sizeof(*ix->ranges)));
	for (size_t i = 0; i < dw->nranges; i++) {
		const struct jh_cu *cu = dw->ncus ? bsearch(&dw->ranges[i].key, dw->cus, dw->ncus,
							    sizeof(*dw->cus), cmp_hdr)
						  : NULL;
		if (cu && dw->ranges[i].lo < dw->ranges[i].hi)
			ix->ranges[ix->nranges++] = (struct jh_sched_range){
				dw->ranges[i].lo, dw->ranges[i].hi, (uint64_t)(cu - dw->cus)
			};
	}
	struct exp e = { dw, ix, level };
	size_t ran = jh_sched_parallel(dw->ncus, jobs, &e, exp_start, exp_run, exp_stop);
	if (ran < dw->ncus) {
		jh_unit_index_free(ix);
		return jh_diag_set(d, JH_EXIT_INTERNAL, jh_sections_path(dw->main), 0,
				   "libdwarf cannot open the DWARF");
	}
	return 0;
}

void jh_unit_index_free(struct jh_unit_index *ix)
{
	for (size_t i = 0; ix->blob && i < ix->nunits; i++)
		free((void *)ix->blob[i]);
	free(ix->blob);
	free(ix->size);
	free(ix->ranges);
	memset(ix, 0, sizeof(*ix));
}
