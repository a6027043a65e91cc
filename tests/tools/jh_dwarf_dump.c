/*
 * jh_dwarf_dump - test driver for the DWARF resolver: prints the frames of
 * each address in llvm-symbolizer's --inlining layout (innermost first,
 * "name\nfile:line\n", blank line after each address), so the two can be
 * compared line by line.
 *
 *   jh_dwarf_dump [-C] [-s] [-j JOBS] [--alt FILE] ELF [ADDR...]   (else stdin)
 *
 * The outermost frame's name comes from the ELF symbol table when a symbol
 * holds the address (elf_image.c, llvm-symbolizer's rules), as the
 * symbolizer facade does. -C demangles like addr2line -C (demangle.c). -s
 * prints each frame's function start line (DW_AT_decl_line, llvm's "Function
 * start line"; 0 for none) instead of its name and line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf_index.h"
#include "jeheap/elf_image.h"
#include "jh_demangle.h"
#include "sections.h"

static void print_name(const char *name, int demangle)
{
	char *dm = name && demangle ? jh_demangle(name) : NULL;
	printf("%s\n", dm ? dm : name ? name : "??");
	free(dm);
}

static void warn_stderr(enum jh_msg kind, const char *msg)
{
	(void)kind;
	fprintf(stderr, "jeheap: warning: %s\n", msg);
}

int main(int argc, char **argv)
{
	jh_set_warn(warn_stderr);
	int demangle = 0, starts = 0, jobs = 0, i = 1;
	const char *alt_path = NULL;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-C"))
			demangle = 1;
		else if (!strcmp(argv[i], "-s"))
			starts = 1;
		else if (!strcmp(argv[i], "-j") && i + 1 < argc)
			jobs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--alt") && i + 1 < argc)
			alt_path = argv[++i];
		else {
			fprintf(stderr, "usage: jh_dwarf_dump [-C] [-s] [-j N] [--alt FILE] ELF "
					"[ADDR...]\n");
			return 1;
		}
	}
	if (i >= argc) {
		fprintf(stderr, "jh_dwarf_dump: missing ELF file\n");
		return 1;
	}
	struct jh_diag d = { { 0 }, 0 };
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
	struct jh_elf_image *im = jh_elf_image_open(jh_sections_path(s), &d);
	for (size_t k = 0; k < n; k++) {
		const struct jh_elf_sym *sym = im ? jh_elf_image_lookup(im, addrs[k]) : NULL;
		const char *outer = sym ? sym->name : NULL;
		if (ans[k].nframes == 0 && starts) {
			printf("0\n\n");
			continue;
		}
		if (ans[k].nframes == 0) {
			print_name(outer, demangle);
			printf("??:0\n\n");
			continue;
		}
		for (uint32_t j = ans[k].nframes; j-- > 0;) {
			const struct jh_dwarf_frame *f = &fr[ans[k].first + j];
			if (starts) {
				printf("%u\n", f->decl_line);
				continue;
			}
			print_name(j == 0 && outer ? outer : f->name, demangle);
			printf("%s:%u\n", f->file ? f->file : "??", f->line);
		}
		printf("\n");
	}
	if (im)
		jh_elf_image_close(im);
	free(fr);
	free(ans);
	free(addrs);
	jh_dwarf_close(dw);
	jh_sections_close(alt);
	jh_sections_close(s);
	return rc;
}
