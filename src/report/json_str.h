/*
 * json_str.h - JSON string bodies (private to src/report/): what --json and
 * --speedscope write names with.
 */
#ifndef JEHEAP_JSON_STR_H
#define JEHEAP_JSON_STR_H

#include <stddef.h>
#include <stdio.h>

/*
 * s[0..n) as the body of a JSON string (RFC 8259): '"' and '\' escaped,
 * control characters (and DEL) as \u00XX; valid UTF-8 is copied, and every
 * byte that is not part of a valid UTF-8 sequence is written as \u00XX
 * (read as Latin-1), so the output is always valid UTF-8.
 */
void jh_json_str(FILE *out, const char *s, size_t n);

#endif
