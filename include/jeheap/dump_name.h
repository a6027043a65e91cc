/*
 * dump_name.h - what jemalloc's file names say: PREFIX.<pid>.<seq>.<tag><n>.heap
 * (prof_dump_filename: tag 'i' for prof_interval dumps, 'm' for prof.dump,
 * 'u' for prof_gdump, 'f' for prof_final without <n>).
 */
#ifndef JEHEAP_DUMP_NAME_H
#define JEHEAP_DUMP_NAME_H

#include <stdint.h>

struct jh_dump_name {
	int ok;            /* the name has jemalloc's form (the rest is 0 if not) */
	uint64_t pid, seq; /* the process and jemalloc's dump sequence number */
	char tag;          /* 'i', 'm', 'u', 'f', ... */
	int has_n;         /* <n> present (every tag but 'f') */
	uint64_t n;
};

/*
 * Parses the base name of path (after the last '/'; a ".gz", ".zst", ".zstd"
 * or ".symbolized" after ".heap" is allowed). Returns dn->ok: 1 when it has
 * jemalloc's form, else 0 (and dn all 0).
 */
int jh_dump_name_parse(const char *path, struct jh_dump_name *dn);

#endif
