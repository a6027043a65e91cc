/*
 * sym_identity.c - is the module file the one that ran? The sampled
 * callers' return addresses must each follow a call instruction in the
 * file (x86-64: call rel32, or call r/m64 in any of its encodings); a file
 * rebuilt since the dump gives other bytes there. Files of other machines
 * are not checked, nor Go programs: their stacks hold addresses that follow
 * no call by design (runtime.goexit + 1 at the root; an inlined call's
 * inline mark + 1).
 */
#include "sym_identity.h"

#include <elf.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* The length of the call r/m64 (FF /2) starting at p if it is one, else 0. */
static size_t call_rm_len(const unsigned char *p, size_t avail)
{
	if (avail < 2 || p[0] != 0xFF || ((p[1] >> 3) & 7) != 2)
		return 0;
	unsigned mod = p[1] >> 6, rm = p[1] & 7;
	size_t len = 2;
	if (mod == 3)
		return len;
	if (rm == 4) { /* SIB */
		if (avail < 3)
			return 0;
		len++;
		if (mod == 0 && (p[2] & 7) == 5)
			len += 4;
	} else if (mod == 0 && rm == 5) { /* RIP-relative */
		len += 4;
	}
	return len + (mod == 1 ? 1 : mod == 2 ? 4 : 0);
}

/* b: the 8 bytes before a return address. */
static int follows_call(const unsigned char b[8])
{
	if (b[3] == 0xE8) /* call rel32 */
		return 1;
	for (size_t k = 2; k <= 7; k++)
		if (call_rm_len(b + 8 - k, k) == k)
			return 1;
	return 0;
}

int jh_module_file_offset(const struct jh_module *m, uint64_t vaddr, uint64_t *off)
{
	const struct jh_elf_load *ld;
	size_t n = jh_elf_image_loads(m->bin, &ld);
	for (size_t i = 0; i < n; i++)
		if (vaddr >= ld[i].vaddr && vaddr < ld[i].vaddr + ld[i].filesz) {
			*off = vaddr - ld[i].vaddr + ld[i].offset;
			return 0;
		}
	return -1;
}

/* Does a (a caller's address, caller-adjusted: return address - 1; or a
 * leaf's, unadjusted) follow a call in the file open as fd? */
static int is_return(const struct jh_module *m, int fd, uint64_t a)
{
	for (uint64_t ra = a + 1; ra >= a && ra >= 8; ra--) {
		uint64_t off;
		unsigned char b[8];
		if (jh_module_file_offset(m, ra - 8, &off) == 0 &&
		    pread(fd, b, sizeof(b), (off_t)off) == (ssize_t)sizeof(b) && follows_call(b))
			return 1;
		if (ra == a)
			break;
	}
	return 0;
}

static uint64_t rd(const unsigned char *p, int n)
{
	uint64_t v = 0;
	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* A 64-bit little-endian ELF file with a .gopclntab section (Go's). */
static int is_go(const struct jh_module *m)
{
	size_t n;
	const unsigned char *p = jh_elf_image_raw(m->bin, &n);
	if (!p || n < 64 || p[4] != ELFCLASS64 || p[5] != ELFDATA2LSB)
		return 0;
	uint64_t shoff = rd(p + 0x28, 8), nsec = rd(p + 0x3c, 2), stri = rd(p + 0x3e, 2);
	if (rd(p + 0x3a, 2) != 64 || stri >= nsec || shoff > n || nsec > (n - shoff) / 64)
		return 0;
	const unsigned char *sh = p + shoff, *st = sh + 64 * stri;
	uint64_t stroff = rd(st + 0x18, 8), strsz = rd(st + 0x20, 8);
	static const char go[] = ".gopclntab";
	if (stroff > n || strsz > n - stroff)
		return 0;
	for (uint64_t i = 0; i < nsec; i++) {
		uint64_t name = rd(sh + 64 * i, 4);
		if (name < strsz && strsz - name >= sizeof(go) &&
		    !memcmp(p + stroff + name, go, sizeof(go)))
			return 1;
	}
	return 0;
}

size_t jh_module_not_returns(const struct jh_module *m, const uint64_t *a, size_t n)
{
	if (is_go(m))
		return 0;
	int fd = open(jh_elf_image_path(m->bin), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	unsigned char mach[2];
	if (pread(fd, mach, 2, 18) != 2 || mach[0] != EM_X86_64 || mach[1] != 0) {
		close(fd); /* only x86-64 call forms are known (e_machine, little-endian) */
		return 0;
	}
	size_t bad = 0;
	for (size_t i = 0; i < n; i++)
		bad += !is_return(m, fd, a[i]);
	close(fd);
	return bad;
}
