/*
 * report_raw.c - --raw: the first profile as a `.symbolized` file (jeprof's
 * format, docs/jeprof.md §11):
 *
 *   --- symbol
 *   binary=<program>
 *   0x<16 hex pc> outer--inlined--innermost     one per distinct caller-adjusted pc, ascending
 *   ---
 *   --- heap
 *   <the profile, verbatim>
 *
 * jeprof can only do this for remote profiles; here the pcs are the model's
 * (the first profile's, jh_model.first_pcs); this writes the symbol part,
 * the command line appends the profile's body verbatim (src/cli/raw_body.c).
 * Names come from the model's locations, so they are exactly what every
 * other report shows; reading the output back gives the same report (round
 * trip).
 */
#include "jeheap/report.h"

#include "jeheap/names.h"

#include <inttypes.h>
#include <stdlib.h>

/*
 * The names of l as a symbol line writes them: full names outermost first
 * joined with "--". A location without a name gets the name every report
 * shows for it ("libname+0xOFF" or the bare pc key), so that reading the
 * file back shows the same; jeprof would print "0x<pc>" for a pc missing
 * from the symbol section.
 */
static void raw_name(struct jh_sb *sb, const struct jh_model *m, const struct jh_location *l)
{
	if (!l->nframes) {
		jh_unknown_name(sb, l);
		return;
	}
	for (uint32_t k = 0; k < l->nframes; k++) {
		const char *fn = m->frames.items[l->first + k].func;
		if (k)
			jh_sb_adds(sb, "--");
		if (fn)
			jh_sb_adds(sb, fn);
		else if (k == 0 && l->module)
			jh_unknown_name(sb, l);
		else
			jh_sb_adds(sb, "??");
	}
}

/* A pc of the first profile and its index in first_pcs/first_locs. */
struct first_pc {
	uint64_t pc;
	size_t i;
};

static int cmp_first_pc(const void *a, const void *b)
{
	return jh_cmp_u64(&((const struct first_pc *)a)->pc, &((const struct first_pc *)b)->pc);
}

int jh_report_raw_symbols(FILE *out, const struct jh_model *m, const struct jh_report_opts *o)
{
	/* the first profile's pcs ascending, each with its location */
	size_t n = m->nfirst;
	struct first_pc *key = xmalloc(jh_st_mult(n ? n : 1, sizeof(*key)));
	for (size_t i = 0; i < n; i++)
		key[i] = (struct first_pc){ m->first_pcs[i], i };
	jh_qsort(key, n, sizeof(*key), cmp_first_pc);

	struct jh_sb name = JH_SB_INIT, line = JH_SB_INIT;
	jh_sb_init(&name);
	jh_sb_init(&line);
	fputs("--- symbol\n", out);
	const char *prog = o->program ? o->program : m->program;
	if (prog) {
		jh_sb_add_visible(&line, prog);
		fprintf(out, "binary=%s\n", line.buf);
	}
	for (size_t i = 0; i < n; i++) {
		const struct jh_location *l = &m->locs[m->first_locs[key[i].i]];
		jh_sb_reset(&name);
		raw_name(&name, m, l);
		/* control characters as visible escapes: a newline in a name
		 * would end the symbol line and forge the next one */
		jh_sb_reset(&line);
		jh_sb_add_visible(&line, name.buf);
		fprintf(out, "0x%016" PRIx64 " %s\n", key[i].pc, line.buf);
	}
	jh_sb_release(&name);
	jh_sb_release(&line);
	free(key);
	fputs("---\n--- heap\n", out);
	return ferror(out) ? -1 : 0;
}
