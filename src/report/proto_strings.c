/* proto_strings.c - the string table of --proto (proto_strings.h). */
#include "proto_strings.h"

#include <string.h>

void jh_pstr_init(struct jh_pstr *t)
{
	memset(t, 0, sizeof(*t));
	jh_u64map_init(&t->index);
	jh_pstr_id(t, "");
}

void jh_pstr_release(struct jh_pstr *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->items[i]);
	free(t->items);
	jh_u64map_release(&t->index);
	memset(t, 0, sizeof(*t));
}

int64_t jh_pstr_id(struct jh_pstr *t, const char *s)
{
	size_t len = strlen(s);
	int added;
	uint64_t *slot = jh_u64map_put(&t->index, jh_hash_str(s, len), &added);
	if (!added && !strcmp(t->items[*slot], s))
		return (int64_t)*slot;
	JH_GROW(t->items, t->n + 1, t->alloc);
	t->items[t->n] = xstrndup(s, len);
	*slot = t->n;
	return (int64_t)t->n++;
}
