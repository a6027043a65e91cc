/*
 * model_mixed.c - profiles of different programs are not summed silently:
 * each profile's program (its symbol section's binary=, else the first file
 * it maps, unless that is a shared library) and the build ID the profile
 * gives for it are compared with the first profile's.
 */
#include "model_internal.h"

#include <stdlib.h>
#include <string.h>

/* The program p is a profile of (NULL: unknown), and its build ID (*idlen 0: none). */
static const char *program_of(const struct jh_profile *p, const unsigned char **id, size_t *idlen)
{
	*idlen = 0;
	const char *path = NULL;
	for (size_t i = 0; i < p->nmaps && !path; i++)
		if (p->maps[i].path && p->maps[i].path[0] == '/')
			path = p->maps[i].path;
	if (p->binary)
		path = p->binary;
	if (!path)
		return NULL;
	const char *b = strrchr(path, '/');
	if (!p->binary && strstr(b ? b + 1 : path, ".so"))
		return NULL; /* the maps do not start with the executable */
	for (size_t i = 0; i < p->nmaps; i++)
		if (p->maps[i].path && !strcmp(p->maps[i].path, path) && p->maps[i].build_id_len) {
			*id = p->maps[i].build_id;
			*idlen = p->maps[i].build_id_len;
			break;
		}
	return path;
}

static void hex(char *out, const unsigned char *id, size_t n)
{
	size_t k = n > 20 ? 20 : n; /* a GNU build ID's 20 bytes say enough */
	for (size_t i = 0; i < k; i++)
		snprintf(out + 2 * i, 3, "%02x", id[i]);
	out[2 * k] = 0;
}

int jh_model_mixed_check(struct jh_model_program *first, const struct jh_profile *p,
			 const char *file, struct jh_diag *d)
{
	const unsigned char *id = NULL;
	size_t idlen;
	const char *path = program_of(p, &id, &idlen);
	if (!path)
		return 0;
	if (!first->path) {
		first->file = xstrdup(file);
		first->path = xstrdup(path);
		if (idlen)
			memcpy(first->id, id, idlen);
		first->idlen = idlen;
		return 0;
	}
	int same_id = idlen && first->idlen && idlen == first->idlen &&
		      !memcmp(id, first->id, idlen);
	if (!strcmp(path, first->path) && (!idlen || !first->idlen || same_id))
		return 0;
	if (same_id)
		return 0; /* one build at two paths */
	if (strcmp(path, first->path))
		return jh_diag_set(d, JH_EXIT_USAGE, NULL, 0,
				   "'%s' is a profile of %s and '%s' of %s: profiles of different "
				   "programs are not summed (--allow-mixed sums them, --base=OLD "
				   "compares them)",
				   first->file, first->path, file, path);
	char a[41], b[41];
	hex(a, first->id, first->idlen);
	hex(b, id, idlen);
	return jh_diag_set(d, JH_EXIT_USAGE, NULL, 0,
			   "'%s' and '%s' are profiles of different builds of %s (build IDs %s and "
			   "%s): they are not summed (--allow-mixed sums them, --base=OLD compares "
			   "them)",
			   first->file, file, path, a, b);
}

void jh_model_program_release(struct jh_model_program *pg)
{
	free(pg->file);
	free(pg->path);
	memset(pg, 0, sizeof(*pg));
}
