/*
 * elf_image.h - what the symbolizer needs from one ELF file, read with
 * libelf: load segments, build-id, separate-debug links, and the function
 * symbol table (.symtab, else .dynsym) sorted by address with sizes.
 *
 * An image is immutable after jh_elf_image_open except for the symbol
 * table, built on the first jh_elf_image_lookup call (call it once from one
 * thread before sharing the image).
 */
#ifndef JEHEAP_ELF_IMAGE_H
#define JEHEAP_ELF_IMAGE_H

#include "jeheap/base.h"

struct jh_elf_image;

struct jh_elf_load { /* one PT_LOAD program header */
	uint64_t vaddr, memsz, offset, filesz, align;
	uint32_t flags; /* PF_X | PF_W | PF_R */
};

struct jh_elf_sym {
	uint64_t addr, size; /* covers [addr, addr + size) */
	const char *name;    /* mangled, as in the string table; valid until close */
};

/* Opens path; NULL with d set ("PATH: what is wrong") if it is missing or not ELF. */
struct jh_elf_image *jh_elf_image_open(const char *path, struct jh_diag *d);
void jh_elf_image_close(struct jh_elf_image *im);

const char *jh_elf_image_path(const struct jh_elf_image *im);
/* Why the file cannot be read whole ("truncated: ..."), or NULL. */
const char *jh_elf_image_damage(const struct jh_elf_image *im);
/* The whole file as mapped (*n bytes), valid until close. */
const unsigned char *jh_elf_image_raw(const struct jh_elf_image *im, size_t *n);
/* e_type: ET_EXEC (non-PIE executable) or ET_DYN (PIE, shared library). */
int jh_elf_image_type(const struct jh_elf_image *im);
uint64_t jh_elf_image_file_size(const struct jh_elf_image *im);
size_t jh_elf_image_loads(const struct jh_elf_image *im, const struct jh_elf_load **loads);

/* NT_GNU_BUILD_ID bytes, or NULL (*len = 0). */
const unsigned char *jh_elf_image_build_id(const struct jh_elf_image *im, size_t *len);
/* .gnu_debuglink file name and CRC32, or NULL. */
const char *jh_elf_image_debuglink(const struct jh_elf_image *im, uint32_t *crc);
/* The dwz alternate file: .gnu_debugaltlink (name + build-id) or DWARF 5
 * .debug_sup (name + checksum). Returns the name or NULL; id and idlen receive the
 * identifier the alternate file's build-id must equal. */
const char *jh_elf_image_altlink(const struct jh_elf_image *im, const unsigned char **id,
				 size_t *idlen);
/* The checksum a DWARF 5 supplementary file records in its own .debug_sup, or NULL. */
const unsigned char *jh_elf_image_sup_id(const struct jh_elf_image *im, size_t *len);
/* The file has DWARF (.debug_info or .zdebug_info with contents). */
int jh_elf_image_has_debug_info(const struct jh_elf_image *im);
/* The file has a non-empty .symtab. */
int jh_elf_image_has_symtab(const struct jh_elf_image *im);

/*
 * The symbol whose [addr, addr + size) contains addr (a zero-size symbol
 * extends to the next symbol, as in llvm-symbolizer), from .symtab, else
 * .dynsym; NULL when no symbol covers addr. Only defined function and data
 * symbols are used; of several at one address the largest wins.
 */
const struct jh_elf_sym *jh_elf_image_lookup(struct jh_elf_image *im, uint64_t addr);
/* The dynamic symbol table defines a function called name. */
int jh_elf_image_exports(const struct jh_elf_image *im, const char *name);

#endif
