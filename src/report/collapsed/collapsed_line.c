/*
 * collapsed_line.c - one --collapsed line built from its elements (see
 * collapsed.h), into a buffer or a string: for the buffered output and
 * for the sort's rare comparisons of whole lines.
 */
#include "collapsed.h"

#include <string.h>

const char jh_coll_inline_mark[] = "[inline]";

void jh_coll_line(const struct jh_coll *c, uint32_t stack, struct jh_coll_sink *k)
{
	const struct jh_gstack *gs = &c->g->stacks[stack];
	const uint32_t *locs = c->g->locpool + gs->off;
	size_t sep = 0;
	for (uint32_t i = gs->len; i-- > 0;) { /* root first */
		uint32_t l = locs[i];
		for (uint32_t e = 0; e < c->eoff[l + 1] - c->eoff[l]; e++) {
			const struct jh_coll_str *t = jh_coll_elem(c, l, e);
			jh_coll_put(k, t->s - sep, t->len + sep);
			sep = jh_coll_sep(t->inl);
		}
	}
	if (sep == JH_NAME_PAD)
		jh_coll_put(k, jh_coll_inline_mark, 8);
	jh_coll_put(k, c->counts + c->coff[stack], c->coff[stack + 1] - c->coff[stack]);
}

void jh_coll_put(struct jh_coll_sink *k, const char *s, size_t n)
{
	if (k->kind == JH_SINK_SB) {
		jh_sb_add(k->sb, s, n);
		return;
	}
	if (k->len + n > k->cap) {
		fwrite(k->buf, 1, k->len, k->out);
		k->len = 0;
		if (n > k->cap) {
			fwrite(s, 1, n, k->out);
			return;
		}
	}
	memcpy(k->buf + k->len, s, n);
	k->len += n;
}
