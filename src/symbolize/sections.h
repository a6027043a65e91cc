/*
 * sections.h - an ELF file's debug sections, ready for DWARF readers.
 *
 * Opened once per file with libelf (ELF_C_READ_MMAP) and immutable after
 * jh_sections_open returns, so any number of threads may read it.
 * Uncompressed sections are zero-copy pointers into the mapping; zlib and
 * zstd SHF_COMPRESSED sections and legacy .zdebug_* sections are
 * decompressed by jeheap itself and are reported under their .debug_* name
 * with their uncompressed size.
 */
#ifndef JEHEAP_SECTIONS_H
#define JEHEAP_SECTIONS_H

#include "jeheap/base.h"
#include "jeheap/elf_image.h"

struct jh_sections;

struct jh_section {
	const char *name;          /* ".debug_info" (a .zdebug_x is renamed .debug_x) */
	const unsigned char *data; /* NULL for SHT_NOBITS */
	uint64_t size;             /* uncompressed size */
	uint64_t addr;             /* sh_addr */
	uint32_t type;             /* sh_type */
	uint64_t flags;            /* sh_flags without SHF_COMPRESSED */
	uint32_t link, info;
	uint64_t entsize;
};

/*
 * Opens path. Returns NULL with d set ("FILE: what is wrong") when the file
 * is missing, not ELF, truncated, or of another architecture/class.
 */
struct jh_sections *jh_sections_open(const char *path, struct jh_diag *d);
/*
 * The same on an opened image's mapping (no second mapping of the file).
 * Both reserve the file and what its compressed sections inflate to against
 * the DWARF memory ceiling (mem_budget.h), released by close: past it they
 * fail with *over set (open_image) and d naming the section.
 */
struct jh_sections *jh_sections_open_image(const struct jh_elf_image *im, struct jh_diag *d,
					   int *over);
void jh_sections_close(struct jh_sections *s);

/* Number of sections (index 0 is the null section). */
size_t jh_sections_count(const struct jh_sections *s);
const struct jh_section *jh_sections_at(const struct jh_sections *s, size_t i);
/* Section by name ("debug_x" also finds a ".zdebug_x"), or NULL. */
const struct jh_section *jh_sections_find(const struct jh_sections *s, const char *name);
/* The index of that section, 0 if none. */
size_t jh_sections_index(const struct jh_sections *s, const char *name);
/*
 * Compressed sections are inflated on first access through jh_sections_at
 * or jh_sections_find (thread-safe). If the compressed bytes turn out to be
 * corrupt, data is NULL while size stays the announced size.
 * jh_sections_peek gives the header fields without inflating (data may be
 * NULL); jh_sections_prefetch inflates the named sections (NULL-terminated
 * list of ".debug_x" names) now, with up to jobs threads (0 = all cores).
 */
const struct jh_section *jh_sections_peek(const struct jh_sections *s, size_t i);
void jh_sections_prefetch(const struct jh_sections *s, const char *const *names, int jobs);
/*
 * Streaming: jh_sections_stream starts inflating compressed section i on a
 * thread of its own, chunk bytes at a time (0: a default), and returns 0;
 * -1 when the section is not compressed, already inflated, or no thread
 * starts (nothing changed). From then on jh_sections_at/find on it block
 * until it is complete, as does close; jh_sections_partial gives it at once,
 * with data pointing at the buffer being filled, and jh_sections_wait
 * blocks until its first n bytes are final and returns how many are (>= n,
 * or fewer when the inflate failed: the rest must not be read). For a
 * section not streamed, partial is jh_sections_at and wait returns the
 * size (0 if data is NULL). guard (tests): the part not yet final is
 * mapped PROT_NONE, so an early reader crashes; the inflate waits for a
 * first blocked reader, then goes slowly.
 */
int jh_sections_stream(const struct jh_sections *s, size_t i, uint64_t chunk, int guard);
const struct jh_section *jh_sections_partial(const struct jh_sections *s, size_t i);
uint64_t jh_sections_wait(const struct jh_sections *s, size_t i, uint64_t n);
int jh_sections_is_64bit(const struct jh_sections *s);
int jh_sections_is_big_endian(const struct jh_sections *s);
uint16_t jh_sections_machine(const struct jh_sections *s);
const char *jh_sections_path(const struct jh_sections *s);

#endif
