/*
 * sym_state.c - the one state of a module (enum jh_modstate) and saying
 * each module's problem once: the warnings of reading its DWARF (kept with
 * the cached answers, so a run answered from the cache says them too) and
 * the files not found, all in one line.
 */
#include "sym_module.h"

#include <stdlib.h>
#include <string.h>

const char *jh_modstate_name(int state)
{
	switch (state) {
	case JH_MOD_LINES: return "lines";
	case JH_MOD_SYMBOLS: return "symbols only";
	case JH_MOD_NOSYMBOLS: return "no symbols";
	case JH_MOD_MISSING: return "missing";
	case JH_MOD_DIFFERS: return "differs";
	case JH_MOD_REFUSED: return "refused";
	default: return "?";
	}
}

int jh_allocator_library_name(const char *path)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	return (!strncmp(b, "libjemalloc", 11) || !strncmp(b, "libtcmalloc", 11)) &&
	       strstr(b, ".so");
}

void jh_module_info(const struct jh_module *m, struct jh_modinfo *mi)
{
	*mi = (struct jh_modinfo){ 0 };
	mi->file = m->file;
	mi->reason = m->reason;
	mi->explained = 1;
	if (m->mismatch) { /* also a file at the path with another build ID */
		mi->state = JH_MOD_DIFFERS;
		return;
	}
	if (!m->bin) {
		mi->state = JH_MOD_MISSING;
		return;
	}
	if (!m->usable || (m->load_known && m->load_state == JH_MOD_REFUSED)) {
		mi->state = JH_MOD_REFUSED; /* let go past the ceiling, or unreadable */
		mi->over_limit = m->over_limit;
		return;
	}
	mi->explained = 0;
	mi->reason = NULL;
	int lines = m->load_known ? m->load_state == JH_MOD_LINES : m->units || m->dbg;
	if (lines)
		mi->state = JH_MOD_LINES;
	else if (jh_elf_image_has_symtab(m->symimg) || m->symfallback)
		mi->state = JH_MOD_SYMBOLS;
	else
		mi->state = JH_MOD_NOSYMBOLS;
}

void jh_module_loaded(struct jh_module *m, int state, const char *why, const char *warning)
{
	/* the same warning again (read from the cache, then found reading): said once */
	int same = m->warning && warning && !strcmp(m->warning, warning);
	m->load_known = 1;
	m->load_state = state;
	free(m->reason);
	free(m->warning);
	m->reason = why && *why ? xstrdup(why) : NULL;
	m->warning = warning && *warning ? xstrdup(warning) : NULL;
	m->warning_said = same && m->warning_said;
}

static int by_main_first(const void *a, const void *b)
{
	const struct jh_module *x = *(struct jh_module *const *)a,
			       *y = *(struct jh_module *const *)b;
	return y->is_main - x->is_main;
}

void jh_modules_say(struct jh_module **mods, size_t n, int verbose)
{
	struct jh_module **gone = xmalloc(jh_st_mult(n + 1, sizeof(*gone)));
	size_t ngone = 0;
	for (size_t i = 0; i < n; i++) {
		struct jh_module *m = mods[i];
		if (m->warning && !m->warning_said) {
			m->warning_said = 1;
			jh_warn("%s", m->warning);
		}
		if (m->missing && !m->missing_said) {
			m->missing_said = 1;
			gone[ngone++] = m;
		}
	}
	if (ngone) {
		/* stable: the main program first, the rest in the order of the maps */
		for (size_t i = 1; i < ngone; i++)
			for (size_t j = i; j > 0 && by_main_first(&gone[j - 1], &gone[j]) > 0;
			     j--) {
				struct jh_module *t = gone[j];
				gone[j] = gone[j - 1];
				gone[j - 1] = t;
			}
		struct jh_sb sb = JH_SB_INIT;
		jh_sb_init(&sb);
		for (size_t i = 0; i < ngone; i++)
			jh_sb_addf(&sb, "%s%s", i ? ", " : "", gone[i]->mappath);
		jh_warn("%zu mapped file%s not found here: %s; %s frames stay unresolved "
			"(--sysroot, "
			"--path-map or --lib_prefix point at copies; --verbose says what was "
			"tried)",
			ngone, ngone > 1 ? "s" : "", sb.buf, ngone > 1 ? "their" : "its");
		jh_sb_release(&sb);
		for (size_t i = 0; verbose && i < ngone; i++)
			jh_warn("%s: not found (%s)", gone[i]->mappath, gone[i]->reason);
	}
	free(gone);
}
