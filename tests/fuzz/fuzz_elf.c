/*
 * libFuzzer target: the ELF/DWARF reader on mutated small ELF files. The
 * bytes go to a memfd (the readers open paths); then the section store, the
 * symbol table and the DWARF index are exercised on a spread of addresses.
 * Any input must give either results or a diagnostic, never a crash.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dwarf_index.h"
#include "elf_image.h"
#include "sections.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
		struct jh_diag d = {{0}, 0};
		if (jh_dwarf_lookup(dw, addrs, n, 1, ans, &fr, &nfr, &d) == 0)
			for (size_t i = 0; i < n; i++)
				if (ans[i].first + (size_t)ans[i].nframes > nfr && ans[i].nframes)
					abort();
		free(fr);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz.elf", 0);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);

	struct jh_diag d = {{0}, 0};
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
	close(fd);
	return 0;
}
