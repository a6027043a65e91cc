/*
 * sym_coverage.c - the symbolizer half of the end-of-run summary: how many
 * unique addresses (and what share of bytes) got full DWARF answers, only a
 * symbol name, or nothing, per module when not all were full. Addresses in
 * the allocator's library are not counted: their frames are dropped from
 * every stack, and a stripped libjemalloc would otherwise make every run look
 * half unsymbolized; the line says how many there were.
 */
#include "jeheap/symbolize.h"

#include <stdlib.h>
#include <string.h>

enum { C_FULL, C_SYMBOL, C_UNKNOWN, C_N };

struct tally {
	const char *module;
	size_t n[C_N];
	double b[C_N];
};

static int klass(const struct jh_symresult *r)
{
	if (r->status == JH_SYM_FULL || r->status == JH_SYM_EMBEDDED)
		return C_FULL;
	return r->status == JH_SYM_SYMBOL ? C_SYMBOL : C_UNKNOWN;
}

static double pct(double x, double total)
{
	return total > 0 ? 100.0 * x / total : 0.0;
}

void jh_symbolize_coverage(FILE *f, const struct jh_symresult *res, const double *bytes, size_t n)
{
	struct tally all = { 0 };
	struct tally *mods = NULL;
	size_t nmods = 0, amods = 0, nalloc = 0;
	for (size_t i = 0; i < n; i++) {
		if (res[i].allocator) {
			nalloc++;
			continue;
		}
		int k = klass(&res[i]);
		double b = bytes ? bytes[i] : 0;
		all.n[k]++;
		all.b[k] += b;
		size_t j = 0;
		while (j < nmods && mods[j].module != res[i].module)
			j++; /* module names are interned: pointer equality */
		if (j == nmods) {
			JH_GROW(mods, nmods + 1, amods);
			memset(&mods[nmods++], 0, sizeof(*mods));
			mods[j].module = res[i].module;
		}
		mods[j].n[k]++;
		mods[j].b[k] += b;
	}
	double total = all.b[C_FULL] + all.b[C_SYMBOL] + all.b[C_UNKNOWN];
	size_t counted = n - nalloc;
	fprintf(f,
		"jeheap: symbolized %zu of %zu unique addresses (%.1f%% of bytes) fully, "
		"%zu (%.1f%%) by symbol only, %zu (%.1f%%) not at all",
		all.n[C_FULL], counted, pct(all.b[C_FULL], total), all.n[C_SYMBOL],
		pct(all.b[C_SYMBOL], total), all.n[C_UNKNOWN], pct(all.b[C_UNKNOWN], total));
	if (nalloc)
		fprintf(f, "; %zu allocator addresses not counted", nalloc);
	fputc('\n', f);
	for (size_t j = 0; all.n[C_FULL] < counted && j < nmods; j++) {
		struct tally *t = &mods[j];
		if (t->n[C_FULL] == t->n[C_FULL] + t->n[C_SYMBOL] + t->n[C_UNKNOWN])
			continue;
		fprintf(f,
			"jeheap:   %s: %zu full, %zu symbol only, %zu unknown (%.1f%% of bytes not "
			"full)\n",
			t->module ? t->module : "(no file mapping)", t->n[C_FULL], t->n[C_SYMBOL],
			t->n[C_UNKNOWN], pct(t->b[C_SYMBOL] + t->b[C_UNKNOWN], total));
	}
	free(mods);
}
