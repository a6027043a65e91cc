/* parse_maps.c - /proc/<pid>/maps lines -> struct jh_mapping; the map sections
 * and the body lines of heap profiles (which end at a map section). */
#include "parse.h"

#include <stdlib.h>

static int hexnum(const char **sp, const char *e, uint64_t *v)
{
	const char *s = *sp;
	uint64_t x = 0;
	int n = 0;
	for (; s < e; s++, n++) {
		unsigned c = (unsigned char)*s, h;
		if (c - '0' < 10)
			h = c - '0';
		else if ((c | 0x20) - 'a' < 6)
			h = (c | 0x20) - 'a' + 10;
		else
			break;
		if (x >> 60)
			return -1;
		x = x << 4 | h;
	}
	if (!n)
		return -1;
	*v = x;
	*sp = s;
	return 0;
}

static int field_end(const char **sp, const char *e)
{
	const char *s = *sp;
	while (s < e && !jh_isspace(*s))
		s++;
	if (s == *sp)
		return -1;
	*sp = s;
	return 0;
}

int jh_maps_parse_line(const char *line, size_t len, struct jh_mapping *out)
{
	const char *s = line, *e = line + len;
	s = jh_skip_space(s, e);
	e = jh_rskip_space(s, e);
	if (s == e)
		return 1;
	struct jh_mapping m = { 0 };
	if (hexnum(&s, e, &m.start) || s >= e || *s++ != '-' || hexnum(&s, e, &m.end))
		return -1;
	const char *path;
	if (s < e && *s == ':') {
		/* macOS "cooked" form: start-end: path (offset 0) */
		path = jh_skip_space(s + 1, e);
		memcpy(m.perms, "r-xp", 5);
	} else {
		if (s >= e || !jh_isspace(*s))
			return -1;
		s = jh_skip_space(s, e);
		const char *perm = s;
		if (field_end(&s, e) || s - perm != 4)
			return -1;
		memcpy(m.perms, perm, 4);
		s = jh_skip_space(s, e);
		if (hexnum(&s, e, &m.offset) || s >= e || !jh_isspace(*s))
			return -1;
		s = jh_skip_space(s, e);
		const char *dev = s; /* major:minor */
		if (field_end(&s, e) || !memchr(dev, ':', (size_t)(s - dev)))
			return -1;
		s = jh_skip_space(s, e);
		const char *inode = s;
		while (s < e && (unsigned)(*s - '0') < 10)
			s++;
		if (s == inode || (s < e && !jh_isspace(*s)))
			return -1;
		path = jh_skip_space(s, e);
	}
	static const char del[] = " (deleted)";
	size_t dl = sizeof(del) - 1;
	if ((size_t)(e - path) >= dl && !memcmp(e - dl, del, dl)) {
		m.deleted = 1;
		e = jh_rskip_space(path, e - dl);
	}
	if (m.end < m.start)
		return -1;
	m.path = xstrndup(path, (size_t)(e - path));
	*out = m;
	return 0;
}

/* Replaces "$build" (not followed by a word character) with value. */
static const char *expand_build(struct jh_sb *sb, const char *s, size_t *len, const char *value,
				size_t vlen)
{
	const char *e = s + *len, *q = s;
	jh_sb_reset(sb);
	const char *hit;
	while ((hit = memmem(q, (size_t)(e - q), "$build", 6))) {
		const char *after = hit + 6;
		int word = after < e && (*after == '_' || (unsigned)((*after | 0x20) - 'a') < 26u ||
					 (unsigned)(*after - '0') < 10);
		jh_sb_add(sb, q, (size_t)(hit - q));
		if (word)
			jh_sb_add(sb, hit, 6);
		else
			jh_sb_add(sb, value, vlen);
		q = after;
	}
	if (q == s)
		return s;
	jh_sb_add(sb, q, (size_t)(e - q));
	*len = sb->len;
	return sb->buf;
}

int jh_parse_maps(struct jh_reader *r, int memory_map)
{
	struct jh_profile *p = r->p;
	char *build = NULL;
	char *line;
	size_t len;
	int rc;
	while ((rc = jh_next_line(r, &line, &len)) > 0) {
		const char *s = line;
		if (memory_map) {
			const char *t = jh_skip_space(s, s + len);
			if (JH_STARTS(t, s + len, "build=")) {
				free(build);
				build = xstrndup(t + 6, (size_t)(s + len - t - 6));
				continue;
			}
			if (build)
				s = expand_build(&r->sb, s, &len, build, strlen(build));
		}
		if (JH_STARTS(s, s + len, "<jemalloc>:"))
			continue;
		struct jh_mapping m;
		int k = jh_maps_parse_line(s, len, &m);
		if (k > 0)
			continue;
		if (k < 0) {
			jh_bad_line(r, "bad memory map line '%s'", jh_quote(r, s, len));
			rc = -1;
			break;
		}
		JH_GROW(p->maps, p->nmaps + 1, p->maps_alloc);
		p->maps[p->nmaps++] = m;
	}
	free(build);
	return rc;
}

int jh_body_line(struct jh_reader *r, const char **sp, const char **ep)
{
	char *line;
	size_t len;
	int rc;
	while ((rc = jh_next_line(r, &line, &len)) > 0) {
		const char *s = line, *e = line + len;
		if ((len && *s == 'M' && JH_STARTS(s, e, "MAPPED_LIBRARIES:")) ||
		    (len && *s == '-' && JH_STARTS(s, e, "--- Memory map:"))) {
			r->body_lines = 1;
			return jh_parse_maps(r, *s == '-') < 0 ? -1 : 0;
		}
		s = jh_skip_space(s, e);
		e = jh_rskip_space(s, e);
		if (s == e)
			continue;
		r->body_lines = 1;
		*sp = s;
		*ep = e;
		return 1;
	}
	return rc;
}
