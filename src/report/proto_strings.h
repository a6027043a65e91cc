/*
 * proto_strings.h - a profile.proto string table being built: each
 * distinct string once, entry 0 the empty string (report stage, private).
 */
#ifndef JEHEAP_PROTO_STRINGS_H
#define JEHEAP_PROTO_STRINGS_H

#include "jeheap/base.h"

struct jh_pstr {
	char **items; /* owned copies; items[0] = "" */
	size_t n, alloc;
	struct jh_u64map index; /* jh_hash_str -> id (a colliding string is added again) */
};

void jh_pstr_init(struct jh_pstr *t);
void jh_pstr_release(struct jh_pstr *t);
/* The id of s, added if new. */
int64_t jh_pstr_id(struct jh_pstr *t, const char *s);

#endif
