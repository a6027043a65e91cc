/*
 * builds.c - whether the profiles compared come from different builds: a
 * module (by file name) whose GNU build ID differs between the files read.
 * Then functions are matched by normalised names (--normalize=clones) unless
 * --normalize says otherwise.
 */
#include "builds.h"

#include "jeheap/names.h"

#include <string.h>

void jh_builds_init(struct jh_builds *b)
{
	memset(b, 0, sizeof(*b));
	jh_intern_init(&b->names);
	jh_u64map_init(&b->by_file);
	jh_sb_init(&b->sb);
}

void jh_builds_release(struct jh_builds *b)
{
	jh_intern_release(&b->names);
	jh_u64map_release(&b->by_file);
	jh_sb_release(&b->sb);
}

int jh_builds_add(struct jh_builds *b, const struct jh_model *m, struct jh_symbolizer *s)
{
	struct jh_u64map seen; /* module path (interned in m) -> 1 */
	jh_u64map_init(&seen);
	for (size_t i = 0; i < m->nlocs && s; i++) {
		const char *mod = m->locs[i].module;
		if (!mod || m->locs[i].status == JH_SYM_EMBEDDED)
			continue;
		int fresh;
		jh_u64map_put(&seen, (uint64_t)(uintptr_t)mod, &fresh);
		if (!fresh)
			continue;
		jh_sb_reset(&b->sb);
		if (jh_symbolizer_build_id(s, mod, &b->sb))
			continue;
		const char *id = jh_intern_n(&b->names, b->sb.buf, b->sb.len);
		const char *base = strrchr(mod, '/');
		const char *file = jh_intern(&b->names, base ? base + 1 : mod);
		int added;
		uint64_t *v = jh_u64map_put(&b->by_file, (uint64_t)(uintptr_t)file, &added);
		if (added) {
			*v = (uint64_t)(uintptr_t)id;
		} else if (*v != (uint64_t)(uintptr_t)id && !b->differ) {
			b->differ = file;
		}
	}
	jh_u64map_release(&seen);
	return b->differ != NULL;
}

unsigned jh_builds_normalize(const struct jh_options *o, const struct jh_builds *b)
{
	if (o->normalize & JH_NORM_NONE)
		return 0;
	if (o->normalize)
		return o->normalize;
	if (b->differ)
		jh_warn("%s differs in build ID between the profiles: functions are matched by "
			"name without clone suffixes (--normalize=none to keep them apart)",
			b->differ);
	return b->differ ? JH_NORM_CLONES : 0;
}
