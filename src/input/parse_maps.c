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
		/* the brief form (gperftools, jemalloc's macOS images): start-end:
		 * path, the file's first loaded byte at start */
		path = jh_skip_space(s + 1, e);
		memcpy(m.perms, "r-xp", 5);
		m.brief = 1;
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

/* The attr=value lines of a memory map: "$attr" (not followed by a word
 * character) in a later line is replaced with value. */
struct attrs {
	char **kv; /* name, value, name, value, ... */
	size_t n, alloc;
};

static int word_char(char c)
{
	return c == '_' || (unsigned)((c | 0x20) - 'a') < 26u || (unsigned)(c - '0') < 10;
}

static void attr_define(struct attrs *a, const char *s, const char *eq, const char *e)
{
	const char *ks = jh_skip_space(s, eq), *ke = jh_rskip_space(ks, eq);
	const char *vs = jh_skip_space(eq + 1, e), *ve = jh_rskip_space(vs, e);
	for (size_t i = 0; i < a->n; i += 2) {
		if (strlen(a->kv[i]) == (size_t)(ke - ks) &&
		    !memcmp(a->kv[i], ks, (size_t)(ke - ks))) {
			free(a->kv[i + 1]);
			a->kv[i + 1] = xstrndup(vs, (size_t)(ve - vs));
			return;
		}
	}
	JH_GROW(a->kv, a->n + 2, a->alloc);
	a->kv[a->n++] = xstrndup(ks, (size_t)(ke - ks));
	a->kv[a->n++] = xstrndup(vs, (size_t)(ve - vs));
}

static const char *attr_expand(const struct attrs *a, struct jh_sb *sb, const char *s, size_t *len)
{
	const char *e = s + *len, *q = s, *hit = s;
	jh_sb_reset(sb);
	int any = 0;
	while ((hit = memchr(hit, '$', (size_t)(e - hit)))) {
		const char *name = hit + 1;
		size_t i;
		for (i = 0; i < a->n; i += 2) {
			size_t k = strlen(a->kv[i]);
			if ((size_t)(e - name) >= k && !memcmp(name, a->kv[i], k) &&
			    (name + k == e || !word_char(name[k])))
				break;
		}
		if (i >= a->n) {
			hit++;
			continue;
		}
		jh_sb_add(sb, q, (size_t)(hit - q));
		jh_sb_adds(sb, a->kv[i + 1]);
		q = hit = name + strlen(a->kv[i]);
		any = 1;
	}
	if (!any)
		return s;
	jh_sb_add(sb, q, (size_t)(e - q));
	*len = sb->len;
	return sb->buf;
}

/*
 * Lines that are not map lines: "attr=value" defines $attr (pprof's
 * ParseProcMaps; jeprof's "build=" of "--- Memory map:"), '#' lines are
 * comments, anything else is skipped with one warning per file, as pprof
 * skips it (the samples are intact). An incomplete last line ends the
 * dump (a truncated tail, see read_input).
 */
int jh_parse_maps(struct jh_reader *r)
{
	struct jh_profile *p = r->p;
	struct attrs a = { 0 };
	char *line;
	size_t len;
	int rc;
	while ((rc = jh_next_line(r, &line, &len)) > 0) {
		const char *s = jh_skip_space(line, line + len);
		const char *e = jh_rskip_space(s, line + len);
		len = (size_t)(e - s);
		if (!len || *s == '#' || JH_STARTS(s, e, "<jemalloc>:"))
			continue;
		if (a.n)
			s = attr_expand(&a, &r->sb, s, &len);
		struct jh_mapping m;
		int k = jh_maps_parse_line(s, len, &m);
		if (k == 0) {
			JH_GROW(p->maps, p->nmaps + 1, p->maps_alloc);
			p->maps[p->nmaps++] = m;
			continue;
		}
		if (k > 0)
			continue;
		if (jh_input_unterminated(r->in)) {
			rc = jh_bad_line(r, "bad memory map line");
			break;
		}
		const char *eq = memchr(s, '=', len);
		if (eq) {
			attr_define(&a, s, eq, s + len);
		} else if (!r->map_warned) {
			r->map_warned = 1;
			jh_warn("%s:%lu: memory map line not recognised, skipped: '%s'",
				jh_input_name(r->in), jh_input_lineno(r->in), jh_quote(r, s, len));
		}
	}
	for (size_t i = 0; i < a.n; i++)
		free(a.kv[i]);
	free(a.kv);
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
			r->maps = 1;
			return jh_parse_maps(r) < 0 ? -1 : 0;
		}
		s = jh_skip_space(s, e);
		e = jh_rskip_space(s, e);
		if (s == e || *s == '#') /* blank, comment (Go's WriteTo(w, 1)) */
			continue;
		r->body_lines = 1;
		*sp = s;
		*ep = e;
		return 1;
	}
	return rc;
}
