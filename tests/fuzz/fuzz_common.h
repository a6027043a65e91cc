/*
 * fuzz_common.h - shared body of the reader fuzz targets: the input is read
 * as is, then once more behind the target's own header line (so mutations
 * explore that reader's body grammar), and the model's invariants are checked.
 */
#ifndef JEHEAP_FUZZ_COMMON_H
#define JEHEAP_FUZZ_COMMON_H

#include <stdlib.h>
#include <string.h>

#include "jeheap/profile.h"

static void fuzz_check(const struct jh_profile *p, int rc, const struct jh_diag *d)
{
	if (rc != 0) {
		if (rc != -1 || !d->msg[0])
			abort();
		return;
	}
	for (size_t i = 0; i < p->nstacks; i++)
		if (p->stacks[i].off + p->stacks[i].len > p->npcs || !p->stacks[i].len)
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

static void fuzz_one(const void *data, size_t n)
{
	struct jh_profile p;
	struct jh_diag d = {{0}, 0};
	jh_profile_init(&p);
	fuzz_check(&p, jh_profile_read_mem(&p, data, n, "fuzz", &d), &d);
	jh_profile_release(&p);
}

static int fuzz_run(const char *header, const uint8_t *data, size_t size)
{
	jh_quiet = 1;
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
