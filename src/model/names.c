/* names.c - frame names per output, jeprof's ShortFunctionName (see names.h). */
#include "jeheap/names.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

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
 * "const" twice in a row, see strip_groups).
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

/* Index of the first byte of src[r..len) that is a or b, or len; bytes
 * before it are copied to dst + w (dst has 16 bytes to spare past len and
 * does not overlap src). */
static size_t copy_to_bracket(char *dst, size_t w, const char *src, size_t r, size_t len, char a,
			      char b)
{
#ifdef __SSE2__
	const __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b);
	for (; r + 16 <= len; r += 16, w += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(src + r));
		unsigned m = (unsigned)_mm_movemask_epi8(
			_mm_or_si128(_mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb)));
		_mm_storeu_si128((__m128i *)(void *)(dst + w), v);
		if (m)
			return r + (size_t)__builtin_ctz(m);
	}
#endif
	for (; r < len && src[r] != a && src[r] != b; r++)
		dst[w++] = src[r];
	return r;
}

/* What strip_groups saw: a group right after a group's ')' (with
 * whitespace between) and a "const" that deleting a group can make. */
enum { SG_GROUP_GROUP = 1, SG_MADE = 2 };

/*
 * Whether deleting the group that closed before src[r], after dst[0..w),
 * can make a "const": dst ends with "c", "co", "con" or "cons" and src goes
 * on with more of it, another group, whitespace or a "const" (a group
 * eating it can make the rest adjacent). A made "const" needs such a
 * group: the first group deleted inside it comes right after a prefix.
 */
static int const_can_form(const char *dst, size_t w, const char *src, size_t r, size_t len)
{
	if (!w || r >= len)
		return 0;
	const char *at = memchr("cons", dst[w - 1], 4);
	if (!at)
		return 0;
	size_t k = (size_t)(at - "cons") + 1;
	return w >= k && !memcmp(dst + w - k, "const", k) &&
	       (src[r] == '(' || is_space(src[r]) || memchr("const", src[r], 5));
}

/*
 * Perl's  while (s/OPEN[^OPENCLOSE]*CLOSE(\s*const)?//g) {}  (the const part
 * only for parentheses, eat_const) in one pass from src[0..len) to dst
 * (which has 16 bytes to spare and does not overlap src); returns the
 * length written. Repeatedly deleting innermost groups deletes exactly the
 * groups a bracket stack matches, each with the "const" that follows it in
 * src -- unless deleting a group makes a "const" ("(a(x))co(y)nst" is ""
 * for Perl: SG_MADE) or the name holds "const" twice and a group follows
 * a group's ')' (a group that ate the first can make the second adjacent
 * to an enclosing group: "(())()constconst", see const_const;
 * SG_GROUP_GROUP); *flags tells, and those names take the pass-by-pass
 * loop. Checked against the Perl code on the golden and benchmark names
 * and on random strings.
 */
static size_t strip_groups(char *dst, const char *src, size_t len, char open, char close,
			   int eat_const, int *flags)
{
	size_t small[64], *stack = small, depth = 0, cap = 64, w = 0;
	for (size_t r = 0;;) {
		size_t q = copy_to_bracket(dst, w, src, r, len, open, close);
		w += q - r;
		r = q;
		if (r >= len)
			break;
		char c = src[r++];
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
				size_t k = r;
				while (k < len && is_space(src[k]))
					k++;
				if (len - k >= 5 && !memcmp(src + k, "const", 5))
					r = k + 5;
				else if (k < len && src[k] == open)
					*flags |= SG_GROUP_GROUP;
				if (const_can_form(dst, w, src, r, len))
					*flags |= SG_MADE;
			}
			continue;
		}
		dst[w++] = c;
	}
	if (stack != small)
		free(stack);
	return w;
}

/* memmem(s, n, "const", 5), faster for this short needle: candidates are
 * a 'c' with a 't' four bytes on. */
static const char *find_const(const char *s, size_t n)
{
	size_t i = 0;
#ifdef __SSE2__
	const __m128i vc = _mm_set1_epi8('c'), vt = _mm_set1_epi8('t');
	for (; i + 20 <= n; i += 16) {
		__m128i a = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 4));
		unsigned m = (unsigned)_mm_movemask_epi8(
			_mm_and_si128(_mm_cmpeq_epi8(a, vc), _mm_cmpeq_epi8(b, vt)));
		for (; m; m &= m - 1) {
			size_t z = i + (size_t)__builtin_ctz(m);
			if (!memcmp(s + z + 1, "ons", 3))
				return s + z;
		}
	}
#endif
	for (; i + 5 <= n; i++)
		if (s[i] == 'c' && !memcmp(s + i + 1, "onst", 4))
			return s + i;
	return NULL;
}

void jh_short_function_name(struct jh_sb *out, const char *full)
{
	size_t n = strlen(full);
	if (!strpbrk(full, "(< \t\n\r\f\v")) {
		jh_sb_add(out, full, n); /* nothing to remove */
		return;
	}
	/* two buffers of n + 16 bytes: the parentheses pass writes the second,
	 * the angle brackets pass the first */
	size_t at = out->len;
	jh_sb_grow(out, 2 * n + 32);
	char *buf = out->buf + at, *tmp = buf + n + 16;
	/* see strip_groups for when Perl's passes and the bracket stack differ */
	int flags = 0;
	size_t m = strip_groups(tmp, full, n, '(', ')', 1, &flags);
	if (flags & SG_GROUP_GROUP) { /* matters with two "const"s */
		const char *c1 = find_const(full, n);
		if (!(c1 && find_const(c1 + 1, n - (size_t)(c1 + 1 - full))))
			flags &= ~SG_GROUP_GROUP;
	}
	if (flags) {
		memcpy(tmp, full, n);
		m = n;
		while (strip_parens_pass(tmp, &m))
			;
	}
	int unused = 0;
	n = strip_groups(buf, tmp, m, '<', '>', 0, &unused);
	/* s/^.*\s+(\w+::)/$1/: keep from the last word that follows a
	 * whitespace character and is followed by "::" (looked for from the
	 * end: the first found is the last; whitespace is <= ' ') */
	size_t start = 0;
	for (size_t r = n; r-- > 1;) {
		if ((unsigned char)buf[r - 1] > ' ' || !is_space(buf[r - 1]) || !is_word(buf[r]))
			continue;
		size_t q = r;
		while (q < n && is_word(buf[q]))
			q++;
		if (q + 1 < n && buf[q] == ':' && buf[q + 1] == ':') {
			start = r;
			break;
		}
	}
	if (start)
		memmove(buf, buf + start, n - start);
	out->len = at + n - start;
	out->buf[out->len] = 0;
}

void jh_namer_init(struct jh_namer *n, struct jh_intern *names)
{
	n->names = names;
	n->normalize = 0;
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
	if (n->normalize & (JH_NORM_CLONES | JH_NORM_TEMPLATES))
		n->tmp.len = jh_normalize_name(n->tmp.buf, n->tmp.len, n->normalize);
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

/* The bytes a collapsed name must change: ';' (the frame separator) and
 * the control characters (a newline would end the record). */
static const char collapsed_unsafe[] =
	";\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f"
	"\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e"
	"\x1f\x7f";

size_t jh_collapsed_frame_len(const char *func, size_t n)
{
	char esc[5];
	size_t len = n;
	for (const char *p = strpbrk(func, collapsed_unsafe); p;
	     p = strpbrk(p + 1, collapsed_unsafe))
		if (*p != ';')
			len += jh_visible_escape((unsigned char)*p, esc) - 1;
	return len;
}

size_t jh_collapsed_frame_to(char *dst, const char *func, size_t n, int inl)
{
	/* names rarely hold any: strpbrk skips to the first one */
	const char *p = strpbrk(func, collapsed_unsafe);
	if (!p) {
		memcpy(dst, func, n);
	} else {
		size_t o = (size_t)(p - func);
		memcpy(dst, func, o);
		for (; *p; p++) {
			size_t k = *p == ';' ? 0 : jh_visible_escape((unsigned char)*p, dst + o);
			if (k)
				o += k;
			else
				dst[o++] = *p == ';' ? ':' : *p;
		}
		n = o;
	}
	if (inl) {
		memcpy(dst + n, "[inline]", 8);
		n += 8;
	}
	return n;
}

void jh_collapsed_frame(struct jh_sb *sb, const char *func, int inl)
{
	size_t n = strlen(func);
	jh_sb_grow(sb, jh_collapsed_frame_len(func, n) + 8);
	sb->len += jh_collapsed_frame_to(sb->buf + sb->len, func, n, inl);
	sb->buf[sb->len] = 0;
}

/* Makes sb->buf[start..] safe in a collapsed line (see jh_collapsed_frame). */
static void collapsed_safe(struct jh_sb *sb, size_t start)
{
	if (!strpbrk(sb->buf + start, collapsed_unsafe))
		return;
	char *tail = xstrdup(sb->buf + start);
	sb->len = start;
	jh_collapsed_frame(sb, tail, 0);
	free(tail);
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
