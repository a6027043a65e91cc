/*
 * jh_dwarf_dump - test driver for the DWARF resolver: prints the frames of
 * each address in llvm-symbolizer's --inlining layout (innermost first,
 * "name\nfile:line\n", blank line after each address), so the two can be
 * compared line by line.
 *
 *   jh_dwarf_dump [-C] [-j JOBS] [--alt FILE] ELF [ADDR...]   (else stdin)
 *
 * The outermost frame's name comes from .symtab when a symbol holds the
 * address, with llvm-symbolizer's rule (a zero-size symbol holds everything
 * up to the next symbol). -C demangles with libiberty like addr2line -C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <demangle.h>

#include "dwarf_index.h"
#include "sections.h"

struct sym {
	uint64_t addr, size;
	const char *name;
	size_t order;
};

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return x->order < y->order ? -1 : 1;
}

/* .symtab FUNC/OBJECT/NOTYPE/IFUNC symbols, one per address (largest size). */
static struct sym *load_syms(const struct jh_sections *s, size_t *n)
{
	*n = 0;
	const struct jh_section *st = jh_sections_find(s, ".symtab");
	if (!st || !st->data || !jh_sections_is_64bit(s))
		return NULL;
	const struct jh_section *str = jh_sections_at(s, st->link);
	if (!str || !str->data)
		return NULL;
	size_t cnt = st->size / 24, m = 0;
	struct sym *v = calloc(cnt + 1, sizeof(*v));
	for (size_t i = 1; i < cnt; i++) {
		const unsigned char *p = st->data + i * 24;
		uint32_t name;
		uint16_t shndx;
		uint64_t val, size;
		memcpy(&name, p, 4);
		memcpy(&shndx, p + 6, 2);
		memcpy(&val, p + 8, 8);
		memcpy(&size, p + 16, 8);
		unsigned type = p[4] & 0xf;
		if (type != 0 && type != 1 && type != 2 && type != 10)
			continue;
		if (shndx == 0 || name >= str->size || !str->data[name])
			continue;
		v[m++] = (struct sym){val, size, (const char *)str->data + name, i};
	}
	jh_qsort(v, m, sizeof(*v), cmp_sym);
	size_t k = 0;
	for (size_t i = 0; i < m; i++) { /* keep the last (largest) per address */
		if (k && v[k - 1].addr == v[i].addr)
			v[k - 1] = v[i];
		else
			v[k++] = v[i];
	}
	*n = k;
	return v;
}

static const char *sym_name(const struct sym *v, size_t n, uint64_t a)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].addr <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	const struct sym *s = &v[lo - 1];
	if (s->size && s->addr + s->size <= a)
		return NULL;
	return s->name;
}

static void print_name(const char *name, int demangle)
{
	char *dm = NULL;
	if (name && demangle) {
		dm = cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI);
		if (!dm)
			dm = cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI | DMGL_NO_RECURSE_LIMIT);
	}
	printf("%s\n", dm ? dm : name ? name : "??");
	free(dm);
}

int main(int argc, char **argv)
{
	int demangle = 0, jobs = 0, i = 1;
	const char *alt_path = NULL;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-C"))
			demangle = 1;
		else if (!strcmp(argv[i], "-j") && i + 1 < argc)
			jobs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--alt") && i + 1 < argc)
			alt_path = argv[++i];
		else {
			fprintf(stderr, "usage: jh_dwarf_dump [-C] [-j N] [--alt FILE] ELF [ADDR...]\n");
			return 1;
		}
	}
	if (i >= argc) {
		fprintf(stderr, "jh_dwarf_dump: missing ELF file\n");
		return 1;
	}
	struct jh_diag d = {{0}, 0};
	struct jh_sections *s = jh_sections_open(argv[i++], &d);
	if (!s) {
		fprintf(stderr, "jeheap: %s\n", d.msg);
		return 2;
	}
	struct jh_sections *alt = NULL;
	if (alt_path && !(alt = jh_sections_open(alt_path, &d))) {
		fprintf(stderr, "jeheap: %s\n", d.msg);
		jh_sections_close(s);
		return 2;
	}
	uint64_t *addrs = NULL;
	size_t n = 0, cap = 0;
	char buf[256];
	for (int k = i;; k++) {
		const char *arg;
		if (i < argc) {
			if (k >= argc)
				break;
			arg = argv[k];
		} else {
			if (!fgets(buf, sizeof(buf), stdin))
				break;
			arg = buf;
		}
		if (n == cap)
			addrs = realloc(addrs, (cap = cap ? cap * 2 : 64) * sizeof(*addrs));
		addrs[n++] = strtoull(arg, NULL, 16);
	}
	/* unusable DWARF: warn and answer from the symbol table alone */
	struct jh_dwarf *dw = jh_dwarf_open(s, alt, &d);
	if (!dw && d.msg[0])
		fprintf(stderr, "jeheap: warning: %s\n", d.msg);
	struct jh_dwarf_answer *ans = calloc(n + 1, sizeof(*ans));
	struct jh_dwarf_frame *fr = NULL;
	size_t nfr = 0;
	int rc = 0;
	if (dw && jh_dwarf_lookup(dw, addrs, n, jobs, ans, &fr, &nfr, &d) != 0) {
		fprintf(stderr, "jeheap: %s\n", d.msg);
		rc = 2;
	}
	size_t nsyms;
	struct sym *syms = load_syms(s, &nsyms);
	for (size_t k = 0; k < n; k++) {
		const char *outer = sym_name(syms, nsyms, addrs[k]);
		if (ans[k].nframes == 0) {
			print_name(outer, demangle);
			printf("??:0\n\n");
			continue;
		}
		for (uint32_t j = ans[k].nframes; j-- > 0;) {
			const struct jh_dwarf_frame *f = &fr[ans[k].first + j];
			print_name(j == 0 && outer ? outer : f->name, demangle);
			printf("%s:%u\n", f->file ? f->file : "??", f->line);
		}
		printf("\n");
	}
	free(syms);
	free(fr);
	free(ans);
	free(addrs);
	jh_dwarf_close(dw);
	jh_sections_close(alt);
	jh_sections_close(s);
	return rc;
}
