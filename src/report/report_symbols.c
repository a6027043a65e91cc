/*
 * report_symbols.c - `--symbols` mode (docs/jeprof.md §12), printing every inline
 * frame like llvm-symbolizer --inlining instead of jeprof's outermost name.
 */
#include "jeheap/report.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static int is_word(int c)
{
	return isalnum(c) || c == '_';
}

/* The first \b0x[0-9a-f]+\b token of line (case-insensitive), as in jeprof. */
static int find_address(const char *line, uint64_t *pc)
{
	for (const char *p = line; *p; p++) {
		if (p[0] != '0' || (p[1] != 'x' && p[1] != 'X'))
			continue;
		if (p > line && is_word((unsigned char)p[-1]))
			continue;
		const char *q = p + 2;
		while (isxdigit((unsigned char)*q))
			q++;
		if (q == p + 2 || is_word((unsigned char)*q))
			continue;
		*pc = strtoull(p + 2, NULL, 16); /* saturates on overflow, like Perl's hex() */
		return 1;
	}
	return 0;
}

/* The frames of r, names and files with visible control characters. */
static void print_result(FILE *out, const struct jh_symresult *r, const struct jh_frames *fr,
			 struct jh_sb *sb)
{
	jh_sb_reset(sb);
	if (!r->nframes)
		jh_sb_adds(sb, "??\n??:0\n");
	for (uint32_t k = r->nframes; k-- > 0;) {
		const struct jh_frame *f = &fr->items[r->first + k];
		jh_sb_add_visible(sb, f->func ? f->func : "??");
		jh_sb_addc(sb, '\n');
		if (f->file) {
			jh_sb_add_visible(sb, f->file);
			jh_sb_addf(sb, ":%" PRIu32 "\n", f->line);
		} else {
			jh_sb_adds(sb, "??:0\n");
		}
	}
	jh_sb_addc(sb, '\n');
	fwrite(sb->buf, 1, sb->len, out);
}

int jh_report_symbols(const struct jh_report_opts *o, FILE *in, FILE *out, struct jh_diag *d)
{
	struct jh_mapping *maps = NULL;
	size_t nmaps = 0, amaps = 0;
	uint64_t *pcs = NULL;
	size_t npcs = 0, apcs = 0;
	char *line = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, in) > 0) {
		uint64_t pc;
		if (find_address(line, &pc)) {
			JH_GROW(pcs, npcs + 1, apcs);
			pcs[npcs++] = pc;
			continue;
		}
		JH_GROW(maps, nmaps + 1, amaps);
		if (jh_maps_parse_line(line, strlen(line), &maps[nmaps]) == 0)
			nmaps++;
	}
	free(line);

	struct jh_symbolizer_opts so = *o->sym;
	so.program = o->program;
	struct jh_symbolizer *s = jh_symbolizer_new(&so);
	struct jh_intern names;
	jh_intern_init(&names);
	struct jh_frames fr = { NULL, 0, 0 };
	struct jh_symresult *res = xcalloc(npcs ? npcs : 1, sizeof(*res));
	int code = JH_EXIT_OK;
	if (jh_symbolize(s, maps, nmaps, pcs, npcs, &names, res, &fr, d) != 0)
		code = d->code ? d->code : JH_EXIT_INTERNAL;
	else {
		struct jh_sb sb = JH_SB_INIT;
		jh_sb_init(&sb);
		for (size_t i = 0; i < npcs; i++)
			print_result(out, &res[i], &fr, &sb);
		jh_sb_release(&sb);
	}
	free(res);
	free(fr.items);
	jh_intern_release(&names);
	jh_symbolizer_free(s);
	for (size_t i = 0; i < nmaps; i++)
		free(maps[i].path);
	free(maps);
	free(pcs);
	return code;
}
