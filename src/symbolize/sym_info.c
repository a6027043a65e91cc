/*
 * sym_info.c - what the reports may ask of the symbolizer's open modules
 * besides frames: build IDs and symbol-table names (--proto).
 */
#include "sym_module.h"

int jh_symbolizer_build_id(struct jh_symbolizer *s, const char *module, struct jh_sb *out)
{
	struct jh_module *m = module ? jh_symbolizer_module(s, module) : NULL;
	size_t n = 0;
	const unsigned char *id = m && m->bin ? jh_elf_image_build_id(m->bin, &n) : NULL;
	if (!id || !n)
		return -1;
	for (size_t i = 0; i < n; i++)
		jh_sb_addf(out, "%02x", id[i]);
	return 0;
}

const char *jh_symbolizer_symbol(struct jh_symbolizer *s, const char *module, uint64_t a)
{
	struct jh_module *m = module ? jh_symbolizer_module(s, module) : NULL;
	const struct jh_elf_sym *sym = m ? jh_module_symbol(m, a) : NULL;
	return sym ? sym->name : NULL;
}
