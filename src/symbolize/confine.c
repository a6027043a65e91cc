/*
 * confine.c - a path resolved inside a root directory, component by
 * component (lstat, readlink), as chroot would resolve it.
 */
#include "confine.h"

#include "jeheap/base.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { MAX_LINKS = 40 };

/* Drops the last component of the resolved part cur[base..]. */
static int pop(struct jh_sb *cur, size_t base)
{
	if (cur->len == base)
		return -1;
	char *s = strrchr(cur->buf + base, '/');
	cur->len = s ? (size_t)(s - cur->buf) : base;
	cur->buf[cur->len] = 0;
	return 0;
}

char *jh_confine(const char *root, const char *path)
{
	struct jh_sb cur = JH_SB_INIT, rest = JH_SB_INIT, next = JH_SB_INIT;
	jh_sb_init(&cur);
	jh_sb_init(&rest);
	jh_sb_init(&next);
	jh_sb_adds(&cur, root);
	while (cur.len > 1 && cur.buf[cur.len - 1] == '/')
		cur.buf[--cur.len] = 0;
	size_t base = cur.len; /* cur[0..base) is root: never left */
	jh_sb_adds(&rest, path);
	const char *why = NULL;
	int links = 0;
	size_t at = 0; /* the next component of rest */
	while (!why && at < rest.len) {
		const char *c = rest.buf + at, *e = strchr(c, '/');
		size_t n = e ? (size_t)(e - c) : strlen(c);
		at += n + (e != NULL);
		if (n == 0 || (n == 1 && c[0] == '.'))
			continue;
		if (n == 2 && c[0] == '.' && c[1] == '.') {
			if (pop(&cur, base))
				why = "climbs above";
			continue;
		}
		size_t keep = cur.len;
		jh_sb_addc(&cur, '/');
		jh_sb_add(&cur, c, n);
		struct stat st;
		if (lstat(cur.buf, &st) || !S_ISLNK(st.st_mode))
			continue; /* a directory, a file, or nothing: kept as written */
		char target[PATH_MAX];
		ssize_t tl = readlink(cur.buf, target, sizeof(target) - 1);
		if (tl <= 0 || ++links > MAX_LINKS) {
			why = "has too many or unreadable symbolic links under";
			continue;
		}
		target[tl] = 0;
		cur.len = target[0] == '/' ? base : keep; /* absolute: from root again */
		cur.buf[cur.len] = 0;
		jh_sb_reset(&next); /* the link's target, then what followed it */
		jh_sb_adds(&next, target);
		jh_sb_addc(&next, '/');
		jh_sb_adds(&next, rest.buf + at);
		jh_sb_reset(&rest);
		jh_sb_add(&rest, next.buf, next.len);
		at = 0;
	}
	jh_sb_release(&rest);
	jh_sb_release(&next);
	if (why) {
		jh_warn("%s %s %s: refused", path, why, root);
		jh_sb_release(&cur);
		return NULL;
	}
	if (cur.len == 0)
		jh_sb_addc(&cur, '/');
	return jh_sb_detach(&cur);
}
