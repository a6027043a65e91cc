/*
 * elf_image.c - load segments, notes, debug links and symbols of one ELF
 * file through libelf (elf_memory over our own mapping: nothing is copied but the sorted
 * symbol array).
 *
 * Symbol rules follow llvm-symbolizer (checked on hand-made ELF files):
 * defined FUNC, IFUNC, OBJECT, COMMON and NOTYPE symbols (not SECTION, FILE,
 * TLS, nor assembler-local ".L" labels) of .symtab, or of .dynsym when there
 * is no .symtab; of several at one address the largest wins, among equals
 * the last in table order; a zero-size symbol extends to the next symbol
 * (the last one without bound); a sized symbol covers only its size, so an
 * address past its end has no name (jeprof's nm lookup guesses one).
 */
#include "jeheap/elf_image.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct jh_elf_image {
	char *path;
	int fd;
	Elf *elf;
	void *map;    /* the whole file, file_size bytes */
	char *damage; /* why the file cannot be read whole (truncated), or NULL */
	int type;
	uint64_t file_size;
	struct jh_elf_load *loads;
	size_t nloads, aloads;
	unsigned char *build_id;
	size_t build_id_len;
	char *debuglink;
	uint32_t debuglink_crc;
	char *altlink;
	unsigned char *alt_id;
	size_t alt_id_len;
	unsigned char *sup_id; /* checksum of a DWARF 5 supplementary file */
	size_t sup_id_len;
	int has_debug_info;
	Elf_Scn *symtab, *dynsym;
	int syms_loaded;
	struct jh_elf_sym *syms;
	size_t nsyms;
};

static int elf_version_checked;

static Elf_Data *section_data(Elf_Scn *scn, GElf_Shdr *sh)
{
	if (!gelf_getshdr(scn, sh) || sh->sh_type == SHT_NOBITS)
		return NULL;
	Elf_Data *d = elf_getdata(scn, NULL);
	return d && d->d_buf && d->d_size ? d : NULL;
}

/* Reads a NT_GNU_BUILD_ID note out of one SHT_NOTE section. */
static void read_build_id(struct jh_elf_image *im, Elf_Data *data)
{
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;
	while ((off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((char *)data->d_buf + name_off, "GNU", 4) && nh.n_descsz > 0) {
			free(im->build_id);
			im->build_id = xmalloc(nh.n_descsz);
			memcpy(im->build_id, (char *)data->d_buf + desc_off, nh.n_descsz);
			im->build_id_len = nh.n_descsz;
			return;
		}
	}
}

static void read_debuglink(struct jh_elf_image *im, Elf_Data *data)
{
	const char *p = data->d_buf;
	size_t n = strnlen(p, data->d_size);
	size_t crc_off = (n + 4) & ~(size_t)3;
	if (n == 0 || crc_off + 4 > data->d_size)
		return;
	uint32_t crc;
	memcpy(&crc, p + crc_off, 4);
	if (elf_getident(im->elf, NULL)[EI_DATA] == ELFDATA2MSB)
		crc = __builtin_bswap32(crc);
	im->debuglink = xstrndup(p, n);
	im->debuglink_crc = crc;
}

static void set_alt(struct jh_elf_image *im, const char *name, size_t n, const void *id,
		    size_t idlen)
{
	if (im->altlink || n == 0)
		return;
	im->altlink = xstrndup(name, n);
	im->alt_id = xmalloc(idlen ? idlen : 1);
	memcpy(im->alt_id, id, idlen);
	im->alt_id_len = idlen;
}

static void read_altlink(struct jh_elf_image *im, Elf_Data *data)
{
	const char *p = data->d_buf;
	size_t n = strnlen(p, data->d_size);
	if (n < data->d_size)
		set_alt(im, p, n, p + n + 1, data->d_size - n - 1);
}

/*
 * DWARF 5 .debug_sup: u16 version, u8 is_supplementary, name, ULEB128
 * length, checksum. A main file names its supplementary file; the
 * supplementary file carries the same checksum with an empty name.
 */
static void read_debug_sup(struct jh_elf_image *im, Elf_Data *data)
{
	const unsigned char *p = data->d_buf, *end = p + data->d_size;
	if (data->d_size < 4 || p[2] > 1)
		return;
	const char *name = (const char *)p + 3;
	size_t n = strnlen(name, end - p - 3);
	const unsigned char *q = (const unsigned char *)name + n + 1;
	uint64_t len = 0;
	unsigned shift = 0;
	while (q < end && shift < 64) {
		len |= (uint64_t)(*q & 0x7f) << shift;
		shift += 7;
		if (!(*q++ & 0x80))
			break;
	}
	if (q > end || len > (uint64_t)(end - q))
		len = 0;
	if (p[2] == 0) {
		set_alt(im, name, n, q, len);
	} else if (len && !im->sup_id) {
		im->sup_id = xmalloc(len);
		memcpy(im->sup_id, q, len);
		im->sup_id_len = len;
	}
}

static void scan_sections(struct jh_elf_image *im)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(im->elf, &shstrndx) != 0)
		return;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(im->elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		const char *name = elf_strptr(im->elf, shstrndx, sh.sh_name);
		if (!name)
			continue;
		if (sh.sh_type == SHT_SYMTAB && sh.sh_size)
			im->symtab = scn;
		else if (sh.sh_type == SHT_DYNSYM && sh.sh_size)
			im->dynsym = scn;
		if ((!strcmp(name, ".debug_info") || !strcmp(name, ".zdebug_info")) &&
		    sh.sh_type != SHT_NOBITS && sh.sh_size > 0)
			im->has_debug_info = 1;
		Elf_Data *data;
		if (sh.sh_type == SHT_NOTE && !im->build_id && (data = section_data(scn, &sh)))
			read_build_id(im, data);
		else if (!strcmp(name, ".gnu_debuglink") && (data = section_data(scn, &sh)))
			read_debuglink(im, data);
		else if (!strcmp(name, ".gnu_debugaltlink") && (data = section_data(scn, &sh)))
			read_altlink(im, data);
		else if (!strcmp(name, ".debug_sup") && !(sh.sh_flags & SHF_COMPRESSED) &&
			 (data = section_data(scn, &sh)))
			read_debug_sup(im, data);
	}
}

static void scan_segments(struct jh_elf_image *im)
{
	size_t n;
	if (elf_getphdrnum(im->elf, &n) != 0)
		return;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(im->elf, (int)i, &ph))
			continue;
		if (ph.p_type == PT_LOAD) {
			JH_GROW(im->loads, im->nloads + 1, im->aloads);
			im->loads[im->nloads++] = (struct jh_elf_load){ ph.p_vaddr,  ph.p_memsz,
									ph.p_offset, ph.p_filesz,
									ph.p_align,  ph.p_flags };
		} else if (ph.p_type == PT_NOTE && !im->build_id && ph.p_filesz) {
			Elf_Data *data = elf_getdata_rawchunk(im->elf, (int64_t)ph.p_offset,
							      ph.p_filesz, ELF_T_NHDR);
			if (data && data->d_buf)
				read_build_id(im, data);
		}
	}
}

/*
 * Notes in im->damage a section header table that does not fit in the file:
 * truncated, or a bogus e_shnum (0 with e_shoff set means the count is in
 * section 0's sh_size, SHN_XINDEX, as libelf reads it).
 */
static void check_headers(struct jh_elf_image *im, const GElf_Ehdr *eh)
{
	size_t n = 0;
	uint64_t ent = eh->e_shentsize ? eh->e_shentsize : 1, size = im->file_size;
	if (!eh->e_shoff)
		return;
	/* libelf gives 0 for a table past the end; e_shnum is what the file claims */
	if (elf_getshdrnum(im->elf, &n) != 0 || n < eh->e_shnum)
		n = eh->e_shnum;
	if (!n)
		n = 1; /* SHN_XINDEX: section 0 holds the count */
	if (eh->e_shoff <= size && n <= (size - eh->e_shoff) / ent) {
		GElf_Shdr sh;
		for (Elf_Scn *scn = NULL; (scn = elf_nextscn(im->elf, scn));) {
			if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS ||
			    (sh.sh_offset <= size && sh.sh_size <= size - sh.sh_offset))
				continue;
			char buf[200];
			snprintf(buf, sizeof(buf),
				 "truncated: section %zu ends at byte %llu, the file has %llu",
				 elf_ndxscn(scn), (unsigned long long)(sh.sh_offset + sh.sh_size),
				 (unsigned long long)size);
			im->damage = xstrdup(buf);
			return;
		}
		return;
	}
	char buf[200];
	snprintf(buf, sizeof(buf),
		 "truncated or bogus section count: %zu section headers at byte %llu do not fit "
		 "in its %llu bytes",
		 n, (unsigned long long)eh->e_shoff, (unsigned long long)size);
	im->damage = xstrdup(buf);
}

const char *jh_elf_image_damage(const struct jh_elf_image *im)
{
	return im->damage;
}

struct jh_elf_image *jh_elf_image_open(const char *path, struct jh_diag *d)
{
	if (!elf_version_checked) {
		if (elf_version(EV_CURRENT) == EV_NONE) {
			jh_diag_set(d, JH_EXIT_INTERNAL, path, 0, "libelf is out of date");
			return NULL;
		}
		elf_version_checked = 1;
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		jh_diag_set(d, JH_EXIT_INPUT, path, 0, "%s", strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		jh_diag_set(d, JH_EXIT_INPUT, path, 0, "not a regular file");
		close(fd);
		return NULL;
	}
	if (st.st_size < 16) {
		jh_diag_set(d, JH_EXIT_INPUT, path, 0, "not an ELF file (%lld bytes)",
			    (long long)st.st_size);
		close(fd);
		return NULL;
	}
	/* our own mapping, so that a failure has its reason; writable private pages, as
	 * libelf may convert in place (nothing is written back) */
	size_t size = (size_t)st.st_size;
	void *map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		jh_diag_set(d, JH_EXIT_INPUT, path, 0, "cannot map the file: %s", strerror(errno));
		close(fd);
		return NULL;
	}
	Elf *elf = elf_memory(map, size);
	GElf_Ehdr eh;
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		jh_diag_set(d, JH_EXIT_INPUT, path, 0, "not an ELF file");
		if (elf)
			elf_end(elf);
		munmap(map, size);
		close(fd);
		return NULL;
	}
	struct jh_elf_image *im = xcalloc(1, sizeof(*im));
	im->path = xstrdup(path);
	im->fd = fd;
	im->elf = elf;
	im->map = map;
	im->type = eh.e_type;
	im->file_size = (uint64_t)st.st_size;
	check_headers(im, &eh);
	scan_sections(im);
	scan_segments(im);
	return im;
}

void jh_elf_image_close(struct jh_elf_image *im)
{
	if (!im)
		return;
	elf_end(im->elf);
	munmap(im->map, (size_t)im->file_size);
	close(im->fd);
	free(im->path);
	free(im->damage);
	free(im->loads);
	free(im->build_id);
	free(im->debuglink);
	free(im->altlink);
	free(im->alt_id);
	free(im->sup_id);
	free(im->syms);
	free(im);
}

const char *jh_elf_image_path(const struct jh_elf_image *im)
{
	return im->path;
}
int jh_elf_image_type(const struct jh_elf_image *im)
{
	return im->type;
}
const unsigned char *jh_elf_image_raw(const struct jh_elf_image *im, size_t *n)
{
	*n = (size_t)im->file_size;
	return im->map;
}
uint64_t jh_elf_image_file_size(const struct jh_elf_image *im)
{
	return im->file_size;
}
int jh_elf_image_has_debug_info(const struct jh_elf_image *im)
{
	return im->has_debug_info;
}

const unsigned char *jh_elf_image_sup_id(const struct jh_elf_image *im, size_t *len)
{
	*len = im->sup_id_len;
	return im->sup_id;
}
int jh_elf_image_has_symtab(const struct jh_elf_image *im)
{
	return im->symtab != NULL;
}

size_t jh_elf_image_loads(const struct jh_elf_image *im, const struct jh_elf_load **loads)
{
	*loads = im->loads;
	return im->nloads;
}

const unsigned char *jh_elf_image_build_id(const struct jh_elf_image *im, size_t *len)
{
	*len = im->build_id_len;
	return im->build_id;
}

const char *jh_elf_image_debuglink(const struct jh_elf_image *im, uint32_t *crc)
{
	*crc = im->debuglink_crc;
	return im->debuglink;
}

const char *jh_elf_image_altlink(const struct jh_elf_image *im, const unsigned char **id,
				 size_t *idlen)
{
	*id = im->alt_id;
	*idlen = im->alt_id_len;
	return im->altlink;
}

struct symkey {
	struct jh_elf_sym s;
	size_t index; /* table order, for a stable choice among equals */
};

static int cmp_symkey(const void *a, const void *b)
{
	const struct symkey *x = a, *y = b;
	if (x->s.addr != y->s.addr)
		return x->s.addr < y->s.addr ? -1 : 1;
	if (x->s.size != y->s.size)
		return x->s.size < y->s.size ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static int usable_symbol(const GElf_Sym *sym, const char *name)
{
	if (sym->st_shndx == SHN_UNDEF || !name || !name[0])
		return 0;
	switch (GELF_ST_TYPE(sym->st_info)) {
	case STT_FUNC:
	case STT_GNU_IFUNC:
	case STT_OBJECT:
	case STT_COMMON: return 1;
	case STT_NOTYPE: return strncmp(name, ".L", 2) != 0;
	default: return 0;
	}
}

static void load_symbols(struct jh_elf_image *im)
{
	im->syms_loaded = 1;
	Elf_Scn *scn = im->symtab ? im->symtab : im->dynsym;
	GElf_Shdr sh;
	Elf_Data *data;
	if (!scn || !(data = section_data(scn, &sh)) || !sh.sh_entsize)
		return;
	size_t n = sh.sh_size / sh.sh_entsize;
	struct symkey *keys = xmalloc(jh_st_mult(n ? n : 1, sizeof(*keys)));
	size_t nk = 0;
	for (size_t i = 1; i < n; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(data, (int)i, &sym))
			continue;
		const char *name = elf_strptr(im->elf, sh.sh_link, sym.st_name);
		if (!usable_symbol(&sym, name))
			continue;
		keys[nk].s = (struct jh_elf_sym){ sym.st_value, sym.st_size, name };
		keys[nk].index = i;
		nk++;
	}
	jh_qsort(keys, nk, sizeof(*keys), cmp_symkey);
	im->syms = xmalloc(jh_st_mult(nk ? nk : 1, sizeof(*im->syms)));
	for (size_t i = 0; i < nk; i++) {
		/* keep the last (largest, latest) entry of each address */
		if (i + 1 < nk && keys[i + 1].s.addr == keys[i].s.addr)
			continue;
		im->syms[im->nsyms++] = keys[i].s;
	}
	free(keys);
	for (size_t i = 0; i + 1 < im->nsyms; i++)
		if (im->syms[i].size == 0)
			im->syms[i].size = im->syms[i + 1].addr - im->syms[i].addr;
}

const struct jh_elf_sym *jh_elf_image_lookup(struct jh_elf_image *im, uint64_t addr)
{
	if (!im->syms_loaded)
		load_symbols(im);
	size_t lo = 0, hi = im->nsyms; /* first symbol with start > addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (im->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	const struct jh_elf_sym *s = &im->syms[lo - 1];
	if (s->size != 0 && addr - s->addr >= s->size)
		return NULL;
	return s;
}

int jh_elf_image_exports(const struct jh_elf_image *im, const char *name)
{
	GElf_Shdr sh;
	Elf_Data *data;
	if (!im->dynsym || !(data = section_data(im->dynsym, &sh)) || !sh.sh_entsize)
		return 0;
	size_t n = sh.sh_size / sh.sh_entsize;
	for (size_t i = 1; i < n; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF ||
		    GELF_ST_TYPE(sym.st_info) != STT_FUNC)
			continue;
		const char *s = elf_strptr(im->elf, sh.sh_link, sym.st_name);
		if (s && !strcmp(s, name))
			return 1;
	}
	return 0;
}
