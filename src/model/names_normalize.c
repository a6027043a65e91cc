/* names_normalize.c - function names matched across builds (--normalize,
 * names.h): compiler clone suffixes and template arguments dropped. */
#include "jeheap/names.h"

#include <string.h>

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Removes every " [clone ...]" group (GCC's demangled clone marks). */
static size_t drop_clone_groups(char *s, size_t n)
{
	static const char mark[] = " [clone ";
	const size_t ml = sizeof(mark) - 1;
	size_t w = 0;
	for (size_t r = 0; r < n;) {
		if (n - r >= ml && !memcmp(s + r, mark, ml)) {
			const char *close = memchr(s + r + ml, ']', n - r - ml);
			if (close) {
				r = (size_t)(close - s) + 1;
				continue;
			}
		}
		s[w++] = s[r++];
	}
	return w;
}

/* Length of name[0..n) without one trailing clone suffix (".cold",
 * ".cold.N", ".constprop.N", ".isra.N", ".part.N"), n if none. */
static size_t strip_suffix(const char *s, size_t n)
{
	static const char words[][12] = { ".constprop", ".isra", ".part", ".cold" };
	size_t e = n;
	while (e > 0 && is_digit(s[e - 1]))
		e--;
	int numbered = e < n && e > 0 && s[e - 1] == '.';
	size_t end = numbered ? e - 1 : n;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		size_t wl = strlen(words[i]);
		if (!numbered && i < 3)
			continue; /* only .cold stands without a number */
		if (end > wl && !memcmp(s + end - wl, words[i], wl))
			return end - wl;
	}
	return n;
}

/* Removes balanced "<...>" groups; leaves the name as it is when its
 * brackets do not balance. */
static size_t drop_templates(char *s, size_t n)
{
	int depth = 0;
	for (size_t i = 0; i < n; i++) {
		depth += s[i] == '<' ? 1 : s[i] == '>' ? -1 : 0;
		if (depth < 0)
			return n;
	}
	if (depth)
		return n;
	size_t w = 0;
	for (size_t r = 0; r < n; r++) {
		if (s[r] == '<')
			depth++;
		else if (s[r] == '>')
			depth--;
		else if (!depth)
			s[w++] = s[r];
	}
	return w;
}

size_t jh_normalize_name(char *s, size_t n, unsigned flags)
{
	if (flags & (JH_NORM_CLONES | JH_NORM_TEMPLATES)) {
		n = drop_clone_groups(s, n);
		for (size_t k; n && (k = strip_suffix(s, n)) != n && k > 0;)
			n = k;
	}
	s[n] = 0;
	if ((flags & JH_NORM_TEMPLATES) && !strstr(s, "operator"))
		n = drop_templates(s, n);
	s[n] = 0;
	return n;
}
