/* names.c - frame names per output, jeprof's ShortFunctionName (see names.h). */
#include "jeheap/names.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Perl's \s (ASCII) and \w. */
static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static int is_word(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/*
 * One pass of s/\([^()]*\)(\s*const)?//g in place on buf[0..*n); returns
 * whether anything was removed (the exact Perl loop, used when the name has
 * "const" twice, see strip_groups).
 */
static int strip_parens_pass(char *buf, size_t *n)
{
	size_t r = 0, w = 0, len = *n;
	int changed = 0;
	while (r < len) {
		if (buf[r] == '(') {
			size_t j = r + 1;
			while (j < len && buf[j] != '(' && buf[j] != ')')
				j++;
			if (j < len && buf[j] == ')') {
				r = j + 1;
				changed = 1;
				size_t k = r;
				while (k < len && is_space(buf[k]))
					k++;
				if (len - k >= 5 && !memcmp(buf + k, "const", 5))
					r = k + 5;
				continue;
			}
		}
		buf[w++] = buf[r++];
	}
	*n = w;
	return changed;
}

/*
 * Perl's  while (s/OPEN[^OPENCLOSE]*CLOSE(\s*const)?//g) {}  (the const part
 * only for parentheses) in one pass, in place on buf[0..*n): repeatedly
 * deleting innermost groups deletes exactly the groups a bracket stack
 * matches, each with the "const" that follows it -- as long as the name
 * holds "const" at most once (with two, a group that ate the first can make
 * the second adjacent to an enclosing group: "(())()constconst"); those
 * names take the pass-by-pass loop. Checked against the Perl code on the
 * golden and benchmark names and on random strings.
 */
static void strip_groups(char *buf, size_t *n, char open, char close, int eat_const)
{
	const char set[3] = {open, close, 0};
	size_t small[64], *stack = small, depth = 0, cap = 64, w = 0, len = *n;
	buf[len] = 0; /* strcspn below stops at the end */
	for (size_t r = 0; r < len; r++) {
		size_t run = strcspn(buf + r, set); /* copy up to the next bracket */
		memmove(buf + w, buf + r, run);
		w += run;
		r += run;
		if (r >= len)
			break;
		char c = buf[r];
		if (c == open) {
			if (depth == cap) {
				size_t *bigger = xmalloc(jh_st_mult(cap * 2, sizeof(*bigger)));
				memcpy(bigger, stack, cap * sizeof(*stack));
				if (stack != small)
					free(stack);
				stack = bigger;
				cap *= 2;
			}
			stack[depth++] = w;
		} else if (depth) { /* close */
			w = stack[--depth];
			if (eat_const) {
				size_t k = r + 1;
				while (k < len && is_space(buf[k]))
					k++;
				if (len - k >= 5 && !memcmp(buf + k, "const", 5))
					r = k + 4;
			}
			continue;
		}
		buf[w++] = c;
	}
	if (stack != small)
		free(stack);
	*n = w;
}

/* memmem(s, n, "const", 5), faster for this short needle. */
static const char *find_const(const char *s, size_t n)
{
	for (const char *e = s + n, *c; (c = memchr(s, 'c', (size_t)(e - s))); s = c + 1)
		if ((size_t)(e - c) >= 5 && !memcmp(c + 1, "onst", 4))
			return c;
	return NULL;
}

void jh_short_function_name(struct jh_sb *out, const char *full)
{
	size_t n = strlen(full);
	if (!strpbrk(full, "(< \t\n\r\f\v")) {
		jh_sb_add(out, full, n); /* nothing to remove */
		return;
	}
	size_t at = out->len;
	jh_sb_add(out, full, n);
	char *buf = out->buf + at;
	const char *c1 = find_const(buf, n);
	if (c1 && find_const(c1 + 1, n - (size_t)(c1 + 1 - buf))) {
		while (strip_parens_pass(buf, &n))
			;
	} else {
		strip_groups(buf, &n, '(', ')', 1);
	}
	strip_groups(buf, &n, '<', '>', 0);
	/* s/^.*\s+(\w+::)/$1/: keep from the last word that follows a
	 * whitespace character and is followed by "::". */
	size_t start = 0;
	for (size_t r = 1; r < n; r++) {
		if (!is_space(buf[r - 1]) || !is_word(buf[r]))
			continue;
		size_t q = r;
		while (q < n && is_word(buf[q]))
			q++;
		if (q + 1 < n && buf[q] == ':' && buf[q + 1] == ':')
			start = r;
	}
	memmove(buf, buf + start, n - start);
	out->len = at + n - start;
	out->buf[out->len] = 0;
}

void jh_namer_init(struct jh_namer *n, struct jh_intern *names)
{
	n->names = names;
	jh_u64map_init(&n->shorts);
	jh_sb_init(&n->tmp);
}

void jh_namer_release(struct jh_namer *n)
{
	jh_u64map_release(&n->shorts);
	jh_sb_release(&n->tmp);
}

const char *jh_namer_short(struct jh_namer *n, const char *full)
{
	int added;
	uint64_t *v = jh_u64map_put(&n->shorts, (uint64_t)(uintptr_t)full, &added);
	if (!added)
		return (const char *)(uintptr_t)*v;
	jh_sb_reset(&n->tmp);
	jh_short_function_name(&n->tmp, full);
	const char *s = jh_intern_n(n->names, n->tmp.buf, n->tmp.len);
	*v = (uint64_t)(uintptr_t)s; /* the map was not modified since the put */
	return s;
}

void jh_pc_key(struct jh_sb *sb, uint64_t pc)
{
	jh_sb_addf(sb, "%016" PRIx64, pc);
}

void jh_frame_fileline(struct jh_sb *sb, const struct jh_model *m, const struct jh_location *l,
		       uint32_t level)
{
	const struct jh_frame *f = &m->frames.items[l->first + level];
	if (l->status == JH_SYM_EMBEDDED && !f->file)
		jh_sb_addc(sb, '?');
	else if (!f->file)
		jh_sb_adds(sb, "??:0");
	else
		jh_sb_addf(sb, "%s:%" PRIu32, f->file, f->line);
}

void jh_unknown_name(struct jh_sb *sb, const struct jh_location *l)
{
	const char *mod = jh_loc_shown_module(l);
	if (mod) {
		const char *base = strrchr(mod, '/');
		jh_sb_addf(sb, "%s+0x%" PRIx64, base ? base + 1 : mod, l->modaddr);
	} else {
		jh_pc_key(sb, l->pc);
	}
}

/* Makes sb->buf[start..] safe in a collapsed line: ';' -> ':' and
 * newlines -> ' '. */
static void collapsed_safe(struct jh_sb *sb, size_t start)
{
	/* names rarely hold any: strpbrk skips to the first one */
	for (char *p = strpbrk(sb->buf + start, ";\n\r"); p && *p; p++) {
		if (*p == ';')
			*p = ':';
		else if (*p == '\n' || *p == '\r')
			*p = ' ';
	}
}

void jh_collapsed_frame(struct jh_sb *sb, const char *func, int inl)
{
	size_t start = sb->len;
	jh_sb_adds(sb, func);
	collapsed_safe(sb, start);
	if (inl)
		jh_sb_adds(sb, "[inline]");
}

void jh_collapsed_name(struct jh_sb *sb, const struct jh_model *m, const struct jh_location *l)
{
	if (!l->nframes) {
		size_t start = sb->len;
		jh_unknown_name(sb, l);
		collapsed_safe(sb, start);
		return;
	}
	for (uint32_t i = 0; i < l->nframes; i++) {
		const struct jh_frame *f = &m->frames.items[l->first + i];
		if (i)
			jh_sb_addc(sb, ';');
		if (f->func) {
			jh_collapsed_frame(sb, f->func, i != 0);
			continue;
		}
		size_t start = sb->len;
		if (jh_loc_shown_module(l) && i == 0) {
			jh_unknown_name(sb, l);
		} else {
			/* jeprof: the file:line, "?" and ":0" normalised to "??:0" */
			size_t at = sb->len;
			jh_frame_fileline(sb, m, l, i);
			if (!strcmp(sb->buf + at, "?") || !strcmp(sb->buf + at, ":0")) {
				sb->len = at;
				sb->buf[at] = 0;
				jh_sb_adds(sb, "??:0");
			}
		}
		collapsed_safe(sb, start);
		if (i)
			jh_sb_adds(sb, "[inline]");
	}
}
