/*
 * sym_cache_id.c - which cache file holds a module's answers: named after
 * the binary's build ID (or its path, size, mtime and inode when it has
 * none), signed with its size (a stripped copy, or one objcopy renamed
 * symbols in, keeps the build ID) and everything else the answers depend
 * on (the debug and dwz files used, whether the binary is a debug file
 * standing in for it).
 */
#include "sym_cache.h"
#include "sym_module.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* What identifies im: its build ID, else its file's path, size, mtime and inode. */
static void describe(struct jh_sb *sb, const struct jh_elf_image *im)
{
	size_t n = 0;
	const unsigned char *id = jh_elf_image_build_id(im, &n);
	if (id && n) { /* with the size: strip and objcopy keep the build ID, not the symbols */
		jh_sb_adds(sb, "id:");
		for (size_t i = 0; i < n; i++)
			jh_sb_addf(sb, "%02x", id[i]);
		jh_sb_addf(sb, " size:%llu", (unsigned long long)jh_elf_image_file_size(im));
		return;
	}
	struct stat st;
	const char *path = jh_elf_image_path(im);
	memset(&st, 0, sizeof(st));
	if (stat(path, &st) != 0)
		jh_sb_addf(sb, "unreadable:%s", path);
	else
		jh_sb_addf(sb, "file:%s size:%llu mtime:%lld.%09ld inode:%llu:%llu", path,
			   (unsigned long long)st.st_size, (long long)st.st_mtim.tv_sec,
			   (long)st.st_mtim.tv_nsec, (unsigned long long)st.st_dev,
			   (unsigned long long)st.st_ino);
}

void jh_module_cache_id(struct jh_module *m)
{
	if (!m->usable || m->cache_sig)
		return;
	struct jh_sb sig = JH_SB_INIT, name = JH_SB_INIT;
	jh_sb_init(&sig);
	jh_sb_init(&name);
	jh_sb_addf(&sig, "jeheap symbol cache %u\nbinary ", JH_SYMCACHE_VERSION);
	describe(&sig, m->bin);
	jh_sb_addf(&sig, "\ndebug-only %d\ndebug ", m->debug_only);
	if (!m->dbg)
		jh_sb_adds(&sig, "none");
	else if (m->dbg == m->bin)
		jh_sb_adds(&sig, "self");
	else
		describe(&sig, m->dbg);
	jh_sb_adds(&sig, "\ndwz ");
	if (m->alt)
		describe(&sig, m->alt);
	else
		jh_sb_adds(&sig, "none");
	jh_sb_adds(&sig, "\n");
	size_t n = 0;
	const unsigned char *id = jh_elf_image_build_id(m->bin, &n);
	if (id && n) {
		for (size_t i = 0; i < n; i++)
			jh_sb_addf(&name, "%02x", id[i]);
	} else { /* the file name, in characters safe anywhere */
		const char *b = strrchr(jh_elf_image_path(m->bin), '/');
		b = b ? b + 1 : jh_elf_image_path(m->bin);
		for (size_t i = 0; b[i] && i < 40; i++)
			jh_sb_addc(&name,
				   strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					  "0123456789_+",
					  b[i]) && b[i]
					   ? b[i]
					   : '_');
	}
	jh_sb_addf(&name, "-%016llx.jhc", (unsigned long long)jh_hash_str(sig.buf, sig.len));
	m->cache_name = jh_sb_detach(&name);
	m->cache_sig = jh_sb_detach(&sig);
}
