/*
 * flame_escape.c - names as text in the SVG and the HTML page (see
 * jh_markup_escape): a name may hold anything a symbol can, "<script>",
 * "]]>", quotes, control characters or bytes that are not UTF-8.
 */
#include "jeheap/report_flame.h"

static void add_hex(struct jh_sb *sb, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	char b[4] = { '\\', 'x', hex[c >> 4], hex[c & 15] };
	jh_sb_add(sb, b, 4);
}

/* The length of the well-formed UTF-8 sequence at s[0..n) (2 to 4), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
	if (c < 0xc2 || c > 0xf4 || len > n)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	unsigned cp = len == 2   ? (c & 0x1f) << 6 | (s[1] & 0x3f)
		      : len == 3 ? (c & 0x0f) << 12 | (s[1] & 0x3f) << 6 | (s[2] & 0x3f)
				 : (c & 0x07) << 18 | (s[1] & 0x3f) << 12 | (s[2] & 0x3f) << 6 |
					   (s[3] & 0x3f);
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0; /* overlong, or past Unicode */
	if ((cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff)
		return 0; /* surrogates and the two non-characters XML refuses */
	return len;
}

void jh_markup_escape(struct jh_sb *sb, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, plain = 0; /* s[plain..i) is copied as it is */
	while (i < n) {
		unsigned char c = s[i];
		const char *ent = NULL;
		size_t len = 1;
		switch (c) {
		case '&': ent = "&amp;"; break;
		case '<': ent = "&lt;"; break;
		case '>': ent = "&gt;"; break;
		case '"': ent = "&quot;"; break;
		case '\'': ent = "&#39;"; break;
		default:
			if (c >= 0x20 && c < 0x7f) {
				i++;
				continue;
			}
			if (c >= 0x80 && (len = utf8_len(s + i, n - i)) > 0) {
				i += len;
				continue;
			}
		}
		jh_sb_add(sb, s + plain, i - plain);
		if (ent)
			jh_sb_adds(sb, ent);
		else
			add_hex(sb, c);
		plain = ++i;
	}
	jh_sb_add(sb, s + plain, i - plain);
}
