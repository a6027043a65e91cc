/*
 * list_lines.c - routines and per-address lines for --list (list_lines.h).
 *
 * jeprof takes a routine's range from nm (symbol start to the next symbol),
 * runs objdump -d -l over it and asks addr2line -i for the outermost
 * location of every instruction. Here the routine is the ELF symbol that
 * covers a sampled address (the symbolizer's symbol rules: the binary's own
 * table, else the debug file's .symtab) and every address of it is looked
 * up in DWARF; an instruction's bytes all share its location, so the
 * per-address answers are jeprof's per-instruction ones.
 */
#include "jeheap/list_lines.h"

#include "jeheap/debug_find.h"
#include "jh_demangle.h"
#include "sym_module.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* No function is this large: a bigger symbol is bogus (or the last one,
 * which extends to the end of the address space) and is not listed. */
#define MAX_ROUTINE ((uint64_t)1 << 26)

struct jh_list_module {
	struct jh_module *m;
	int owned; /* opened here, not the symbolizer's */
};

struct jh_list_module *jh_list_module_open(const struct jh_symbolizer_opts *so,
					   struct jh_symbolizer *s, const char *module)
{
	struct jh_list_module *lm = xcalloc(1, sizeof(*lm));
	if ((lm->m = jh_symbolizer_module(s, module)))
		return lm;
	const char *file = NULL;
	int is_main = 0;
	if (so->program && !strcmp(module, so->program)) {
		file = so->program;
		is_main = 1;
	}
	for (size_t i = 0; i < so->nadd_libs && !file; i++)
		if (!strcmp(module, so->add_libs[i]))
			file = module;
	struct jh_module *m = jh_module_open(so, module, module, file, is_main);
	jh_module_load(m);
	if (!m->usable) {
		jh_module_close(m);
		free(lm);
		return NULL;
	}
	lm->m = m;
	lm->owned = 1;
	return lm;
}

void jh_list_module_close(struct jh_list_module *lm)
{
	if (!lm)
		return;
	if (lm->owned)
		jh_module_close(lm->m);
	free(lm);
}

int jh_list_routine_at(struct jh_list_module *lm, uint64_t a, struct jh_intern *names,
		       struct jh_list_routine *r)
{
	const struct jh_elf_sym *sym = jh_module_symbol(lm->m, a);
	if (!sym || !sym->size || sym->size > MAX_ROUTINE)
		return -1;
	char *dm = jh_demangle(sym->name);
	*r = (struct jh_list_routine){ sym->addr, sym->size,
				       jh_intern(names, dm ? dm : sym->name) };
	free(dm);
	return 0;
}

int jh_list_lines(struct jh_list_module *lm, const struct jh_list_routine *r, size_t n, int jobs,
		  struct jh_list_loc *locs, struct jh_diag *d)
{
	size_t total = 0;
	for (size_t k = 0; k < n; k++)
		total += (size_t)r[k].size;
	if (!lm->m->dw) { /* no DWARF: no lines (jeprof: "no filename found") */
		memset(locs, 0, total * sizeof(*locs));
		return 0;
	}
	uint64_t *addrs = xmalloc(jh_st_mult(total ? total : 1, sizeof(*addrs)));
	struct jh_dwarf_answer *ans = xcalloc(total ? total : 1, sizeof(*ans));
	for (size_t k = 0, i = 0; k < n; k++)
		for (uint64_t a = 0; a < r[k].size; a++)
			addrs[i++] = r[k].addr + a;
	struct jh_dwarf_frame *fr = NULL;
	size_t nfr = 0;
	int rc = jh_dwarf_lookup(lm->m->dw, addrs, total, jobs, ans, &fr, &nfr, d);
	for (size_t i = 0; i < total && rc == 0; i++) {
		const struct jh_dwarf_frame *f = ans[i].nframes ? &fr[ans[i].first] : NULL;
		/* addr2line prints line 0 as '?', which jeprof does not take */
		if (f && f->file && f->line)
			locs[i] = (struct jh_list_loc){ f->file, f->line };
		else
			locs[i] = (struct jh_list_loc){ NULL, 0 };
	}
	free(fr);
	free(ans);
	free(addrs);
	return rc;
}

FILE *jh_list_source_open(const struct jh_symbolizer_opts *so, const char *path,
			  struct jh_sb *tried)
{
	char *p = jh_source_path(so, path);
	jh_sb_reset(tried);
	if (!p) { /* refused (warned): it leads out of --path-map or --sysroot */
		errno = EACCES;
		return NULL;
	}
	jh_sb_adds(tried, p);
	FILE *f = fopen(p, "r");
	int err = errno;
	free(p);
	errno = err;
	return f;
}
