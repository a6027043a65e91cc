/*
 * model_coverage.c - the coverage of a model's symbolization, computed once
 * for every output (model.h): the share of sampled bytes whose stacks got a
 * name and a line for every frame, and per module its state (from the
 * symbolizer), the bytes it leaves short of lines and what to do about it.
 */
#include "jeheap/model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* _start and the dynamic loader: never with lines, never a problem. */
static int normal(const struct jh_model *m, const struct jh_location *l)
{
	if (l->module && !strncmp(base_name(l->module), "ld-linux", 8))
		return 1;
	return l->nframes && m->frames.items[l->first].func &&
	       !strcmp(m->frames.items[l->first].func, "_start");
}

static int cmp_short(const void *pa, const void *pb)
{
	const struct jh_coverage_module *a = pa, *b = pb;
	if (a->bytes_short != b->bytes_short)
		return a->bytes_short < b->bytes_short ? 1 : -1;
	return strcmp(a->module, b->module);
}

/* The module index of every counted location (UINT32_MAX: not counted or in
 * no module), the modules in c, the address counts. */
static uint32_t *tally_locations(const struct jh_model *m, struct jh_coverage *c, uint8_t *skip)
{
	uint32_t *mod = xmalloc(jh_st_mult(m->nlocs + 1, sizeof(*mod)));
	size_t amods = 0;
	for (size_t i = 0; i < m->nlocs; i++) {
		const struct jh_location *l = &m->locs[i];
		mod[i] = UINT32_MAX;
		c->nallocator += l->status != JH_SYM_EMBEDDED && l->allocator;
		skip[i] = l->status == JH_SYM_EMBEDDED || l->allocator || normal(m, l);
		if (skip[i])
			continue;
		c->naddrs++;
		c->nfull += l->status == JH_SYM_FULL;
		c->nsymbol += l->status == JH_SYM_SYMBOL;
		c->nunknown += l->status == JH_SYM_UNKNOWN;
		if (!l->module)
			continue;
		size_t j = 0;
		while (j < c->nmods && c->mods[j].module != l->module)
			j++; /* interned: pointer equality */
		if (j == c->nmods) {
			JH_GROW(c->mods, c->nmods + 1, amods);
			struct jh_coverage_module *cm = &c->mods[c->nmods++];
			memset(cm, 0, sizeof(*cm));
			cm->module = l->module;
			struct jh_modinfo mi;
			cm->state = -1;
			if (m->sym && jh_symbolizer_modinfo(m->sym, l->module, &mi) == 0) {
				cm->state = mi.state;
				cm->explained = mi.explained;
				cm->over_limit = mi.over_limit;
				cm->reason = mi.reason;
			}
		}
		mod[i] = (uint32_t)j;
		struct jh_coverage_module *cm = &c->mods[j];
		cm->full += l->status == JH_SYM_FULL;
		cm->symbol += l->status == JH_SYM_SYMBOL;
		cm->unknown += l->status == JH_SYM_UNKNOWN;
	}
	return mod;
}

int jh_model_coverage_tally(const struct jh_model *m, struct jh_coverage *c)
{
	memset(c, 0, sizeof(*c));
	size_t nraw = 0;
	for (size_t i = 0; i < m->nlocs; i++)
		nraw += m->locs[i].status != JH_SYM_EMBEDDED;
	if (!nraw)
		return 0;
	uint8_t *skip = xmalloc(m->nlocs + 1);
	uint32_t *mod = tally_locations(m, c, skip);
	size_t *stamp = xcalloc(c->nmods + 1, sizeof(*stamp));
	for (size_t s = 0; s < m->nstacks; s++) {
		const struct jh_mstack *ms = &m->stacks[s];
		double w = ms->c.v[JH_INUSE_SPACE] +
			   (m->stack_base ? m->stack_base[s].v[JH_INUSE_SPACE] : 0);
		int full = 1;
		for (uint32_t k = 0; k < ms->len; k++) {
			uint32_t l = m->locpool[ms->off + k];
			if (skip[l] || m->locs[l].status == JH_SYM_FULL)
				continue;
			full = 0;
			if (mod[l] != UINT32_MAX && stamp[mod[l]] != s + 1) {
				stamp[mod[l]] = s + 1; /* each stack once per module */
				c->mods[mod[l]].bytes_short += w;
			}
		}
		c->total_bytes += w;
		c->full_bytes += full ? w : 0;
	}
	free(stamp);
	free(mod);
	free(skip);
	c->percent = c->total_bytes > 0 ? round(1000 * c->full_bytes / c->total_bytes) / 10 : 100;
	if (c->nmods)
		qsort(c->mods, c->nmods, sizeof(*c->mods), cmp_short);
	return 1;
}

void jh_coverage_release(struct jh_coverage *c)
{
	for (size_t i = 0; i < c->nmods; i++)
		free(c->mods[i].action);
	free(c->mods);
	memset(c, 0, sizeof(*c));
}

/* What to do about module cm (pkg: its Debian package, or ""). */
static char *action(const struct jh_coverage_module *cm, const char *pkg)
{
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	switch (cm->state) {
	case JH_MOD_SYMBOLS:
	case JH_MOD_NOSYMBOLS:
		if (*pkg)
			jh_sb_addf(&sb,
				   "install %s-dbgsym (or %s-dbg), or point --debug-dir at its "
				   "debug file",
				   pkg, pkg);
		else
			jh_sb_adds(&sb, "build it with -g, or point --debug-dir at its debug file");
		break;
	case JH_MOD_MISSING:
		jh_sb_adds(&sb, "point --sysroot, --path-map or --lib_prefix at a copy of the "
				"file that ran");
		break;
	case JH_MOD_DIFFERS:
		jh_sb_adds(&sb, "the file here was rebuilt or replaced since the profile was "
				"taken: point --path-map or --sysroot at the build that ran");
		break;
	case JH_MOD_REFUSED:
		jh_sb_adds(&sb, cm->over_limit ? "raise --max-memory"
					       : "reinstall or rebuild its debug file");
		break;
	default: break;
	}
	return sb.len ? jh_sb_detach(&sb) : (jh_sb_release(&sb), NULL);
}

void jh_coverage_actions(struct jh_coverage *c, size_t upto)
{
	if (upto > c->nmods)
		upto = c->nmods;
	const char **paths = xmalloc(jh_st_mult(upto + 1, sizeof(*paths)));
	char(*pkg)[JH_PKG_NAME] = xcalloc(upto + 1, sizeof(*pkg));
	size_t n = 0;
	for (size_t i = 0; i < upto; i++) /* only those a package can help */
		if (c->mods[i].state == JH_MOD_SYMBOLS || c->mods[i].state == JH_MOD_NOSYMBOLS)
			paths[n++] = c->mods[i].module;
	jh_debian_packages(paths, n, pkg);
	for (size_t i = 0, k = 0; i < upto; i++) {
		struct jh_coverage_module *cm = &c->mods[i];
		int asked = cm->state == JH_MOD_SYMBOLS || cm->state == JH_MOD_NOSYMBOLS;
		if (!cm->action && cm->bytes_short > 0)
			cm->action = action(cm, asked ? pkg[k] : "");
		k += asked;
	}
	free(pkg);
	free(paths);
}

static double pct(double x, double total)
{
	return total > 0 ? 100.0 * x / total : 0.0;
}

void jh_model_coverage(const struct jh_model *m, FILE *f)
{
	struct jh_coverage c;
	if (!jh_model_coverage_tally(m, &c))
		return; /* names from the files only (.symbolized): nothing to say */
	jh_coverage_actions(&c, c.nmods);
	fprintf(f,
		"jeheap: %.1f%% of bytes fully symbolized; of %zu unique addresses %zu with "
		"lines, %zu by symbol only, %zu not at all",
		c.percent, c.naddrs, c.nfull, c.nsymbol, c.nunknown);
	if (c.nallocator)
		fprintf(f, "; %zu allocator addresses not counted", c.nallocator);
	fputc('\n', f);
	for (size_t j = 0; j < c.nmods; j++) {
		const struct jh_coverage_module *cm = &c.mods[j];
		if (cm->full == cm->full + cm->symbol + cm->unknown)
			continue;
		fprintf(f,
			"jeheap:   %s: %s; %zu with lines, %zu symbol only, %zu unknown; %.1f%% of "
			"bytes short of lines",
			cm->module, cm->state >= 0 ? jh_modstate_name(cm->state) : "not symbolized",
			cm->full, cm->symbol, cm->unknown, pct(cm->bytes_short, c.total_bytes));
		if (cm->reason)
			fprintf(f, "; %s", cm->reason);
		if (cm->action)
			fprintf(f, "; %s", cm->action);
		fputc('\n', f);
	}
	jh_coverage_release(&c);
}
