/*
 * fuzz_common.h - shared body of the reader fuzz targets: the input is read
 * as is, then once more behind the target's own header line (so mutations
 * explore that reader's body grammar), and the profile's invariants are
 * checked. Each is read twice: plainly, and as jeheap reads it (split
 * symbols, dense pc ids, thread lines checked but not stored), the second
 * then added to a model whose invariants are checked too, and whose
 * --collapsed lines are written both ways (writev, buffer) and compared.
 */
#ifndef JEHEAP_FUZZ_COMMON_H
#define JEHEAP_FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jeheap/analyse.h"
#include "jeheap/profile.h"
#include "model_internal.h"
#include "jeheap/report.h"

static void fuzz_check(const struct jh_profile *p, int rc, const struct jh_diag *d)
{
	if (rc != 0) {
		if (rc != -1 || !d->msg[0])
			abort();
		return;
	}
	/* a pprof sample may have no location (allocator frames only): only there
	 * a stack may be empty */
	for (size_t i = 0; i < p->nstacks; i++)
		if (p->stacks[i].off + p->stacks[i].len > p->npcs ||
		    (!p->stacks[i].len && p->format != JH_FMT_PPROF))
			abort();
	for (size_t i = 0; i < p->ntsamples; i++)
		if (p->tsamples[i].thread >= p->nthreads || p->tsamples[i].stack >= p->nstacks)
			abort();
	for (size_t i = 0; i < p->nsyms; i++) {
		if (i && p->syms[i - 1].pc >= p->syms[i].pc)
			abort();
		if (jh_profile_symbol(p, p->syms[i].pc) != p->syms[i].names)
			abort();
	}
}

/* A profile read with dense_pcs (and split_symbols). */
static void fuzz_check_dense(const struct jh_profile *p)
{
	for (size_t i = 0; i < p->nstacks; i++)
		if (p->stacks[i].off + p->stacks[i].len > p->npcids ||
		    (!p->stacks[i].len && p->format != JH_FMT_PPROF))
			abort();
	for (size_t i = 0; i < p->npcids; i++)
		if (p->pcids[i] >= p->nupcs)
			abort();
	for (size_t i = 0; i < p->nupcs; i++)
		if (p->upc_syms[i] > p->nsyms ||
		    (p->upc_syms[i] && p->syms[p->upc_syms[i] - 1].pc != p->upcs[i]))
			abort();
	if (p->no_threads && p->ntsamples)
		abort();
}

/* --collapsed of m written with writev (to a file in memory) and through
 * the buffer (to a memory stream): the same bytes. */
static void fuzz_collapsed(const struct jh_model *m)
{
	struct jh_analysis_opts o;
	struct jh_graph g;
	struct jh_diag d = { { 0 }, 0 };
	memset(&o, 0, sizeof(o));
	o.value = JH_INUSE_SPACE;
	o.granularity = JH_GRAN_FUNCTIONS;
	if (jh_analyse_stacks(&g, m, &o, -1, &d))
		abort();
	char *buf = NULL;
	size_t n = 0;
	FILE *mem = open_memstream(&buf, &n);
	int fd = memfd_create("fuzz", 0);
	FILE *file = fd >= 0 ? fdopen(fd, "w+") : NULL;
	if (!mem || !file || jh_report_collapsed(mem, &g) || jh_report_collapsed(file, &g))
		abort();
	fflush(mem);
	fflush(file);
	struct stat st;
	if (fstat(fd, &st) || (size_t)st.st_size != n)
		abort();
	char *got = malloc(n + 1);
	if (pread(fd, got, n, 0) != (ssize_t)n || memcmp(got, buf, n))
		abort();
	free(got);
	fclose(file);
	fclose(mem);
	free(buf);
	jh_graph_release(&g);
}

static void fuzz_model(struct jh_profile *p)
{
	struct jh_model m;
	struct jh_diag d = { { 0 }, 0 };
	jh_model_init(&m, 0);
	if (jh_model_add_profile(&m, p, 0, NULL, &d))
		abort(); /* no symbolizer: nothing can fail */
	jh_model_finish(&m, 0, 0);
	for (size_t i = 0; i < m.nstacks; i++) {
		if (m.stacks[i].off + m.stacks[i].len > m.nlocpool)
			abort();
		for (uint32_t k = 0; k < m.stacks[i].len; k++)
			if (m.locpool[m.stacks[i].off + k] >= m.nlocs)
				abort();
	}
	for (size_t i = 0; i < m.nlocs; i++)
		if (m.locs[i].first + m.locs[i].nframes > m.frames.nr)
			abort();
	fuzz_collapsed(&m);
	jh_model_release(&m);
}

static void fuzz_one(const void *data, size_t n)
{
	for (int jeheap_mode = 0; jeheap_mode < 2; jeheap_mode++) {
		struct jh_profile p;
		struct jh_diag d = { { 0 }, 0 };
		jh_profile_init(&p);
		p.split_symbols = p.dense_pcs = p.no_threads = jeheap_mode;
		int rc = jh_profile_read_mem(&p, data, n, "fuzz", &d);
		if (!jeheap_mode) {
			fuzz_check(&p, rc, &d);
		} else if (rc == 0) {
			fuzz_check_dense(&p);
			fuzz_model(&p);
		} else if (rc != -1 || !d.msg[0]) {
			abort();
		}
		jh_profile_release(&p);
	}
}

static int fuzz_run(const char *header, const uint8_t *data, size_t size)
{
	fuzz_one(data, size);
	size_t hl = strlen(header);
	char *buf = malloc(hl + size);
	memcpy(buf, header, hl);
	memcpy(buf + hl, data, size);
	fuzz_one(buf, hl + size);
	free(buf);
	return 0;
}

#endif
