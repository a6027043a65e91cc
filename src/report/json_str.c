/*
 * json_str.c - JSON string bodies (see json_str.h).
 */
#include "json_str.h"

/* The length of the valid UTF-8 sequence at s[0..n) (RFC 3629: no overlong
 * forms, no surrogates, at most U+10FFFF), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
	if (s[0] < 0xc2 || s[0] > 0xf4 || len > n)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
		return 0;
	return len;
}

void jh_json_str(FILE *out, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];
		size_t l;
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\u%04x", c);
		else if (c < 0x80)
			putc(c, out);
		else if ((l = utf8_len(s + i, n - i)) != 0) {
			fwrite(s + i, 1, l, out);
			i += l - 1;
		} else {
			fprintf(out, "\\u%04x", c);
		}
	}
}
