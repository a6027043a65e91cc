/*
 * elf_exercise.h - the body shared by the ELF/DWARF fuzz target and the
 * regression test over testdata/fuzz-regressions/elf/: open a file as an ELF
 * image, a section store and a DWARF index, and look up a spread of
 * addresses. Any input must give results or a diagnostic, never a crash.
 */
#ifndef JEHEAP_ELF_EXERCISE_H
#define JEHEAP_ELF_EXERCISE_H

#include <stdlib.h>

#include "dwarf_index.h"
#include "jeheap/elf_image.h"
#include "sections.h"

static void lookups(struct jh_elf_image *im, struct jh_dwarf *dw, uint64_t base)
{
	uint64_t addrs[64];
	size_t n = 0;
	for (uint64_t a = base; n < JH_ARRAY_SIZE(addrs); a += 7)
		addrs[n++] = a;
	if (im)
		for (size_t i = 0; i < n; i++)
			(void)jh_elf_image_lookup(im, addrs[i]);
	if (dw) {
		struct jh_dwarf_answer ans[64];
		struct jh_dwarf_frame *fr = NULL;
		size_t nfr = 0;
		struct jh_diag d = { { 0 }, 0 };
		if (jh_dwarf_lookup(dw, addrs, n, 1, ans, &fr, &nfr, &d) == 0)
			for (size_t i = 0; i < n; i++)
				if (ans[i].first + (size_t)ans[i].nframes > nfr && ans[i].nframes)
					abort();
		free(fr);
	}
}

/* Returns 0; aborts when a reader breaks its contract. */
static int jh_exercise_elf(const char *path)
{
	struct jh_diag d = { { 0 }, 0 };
	struct jh_elf_image *im = jh_elf_image_open(path, &d);
	if (!im && !d.msg[0])
		abort();
	if (im) {
		size_t len;
		uint32_t crc;
		const unsigned char *id;
		const struct jh_elf_load *loads;
		(void)jh_elf_image_build_id(im, &len);
		(void)jh_elf_image_debuglink(im, &crc);
		(void)jh_elf_image_altlink(im, &id, &len);
		(void)jh_elf_image_exports(im, "malloc");
		(void)jh_elf_image_loads(im, &loads);
	}
	d.msg[0] = 0;
	struct jh_sections *s = jh_sections_open(path, &d);
	if (!s && !d.msg[0])
		abort();
	struct jh_dwarf *dw = NULL;
	if (s) {
		d.msg[0] = 0;
		dw = jh_dwarf_open(s, NULL, &d);
	}
	lookups(im, dw, 0x1000);
	lookups(im, dw, 0x401000);
	if (dw)
		jh_dwarf_close(dw);
	if (s)
		jh_sections_close(s);
	if (im)
		jh_elf_image_close(im);
	return 0;
}

#endif
