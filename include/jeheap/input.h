/*
 * input.h - streaming line reader over a file, stdin or a memory buffer.
 *
 * gzip (1f 8b) and zstd (28 b5 2f fd) are detected by their magic bytes and
 * decompressed on the fly; the data is read in chunks, never slurped. Lines
 * are handed out without the '\n' and without trailing '\r's. A NUL byte in
 * the (decompressed) data is an error: profiles are text.
 */
#ifndef JEHEAP_INPUT_H
#define JEHEAP_INPUT_H

#include "jeheap/base.h"

struct jh_input;

/* Bytes after the end of every line that may be read (not written) safely. */
#define JH_INPUT_PAD 16

/* Opens path ("-" = stdin). Returns NULL with d set if it cannot be opened. */
struct jh_input *jh_input_open(const char *path, struct jh_diag *d);
/* Reads from data[0..n) (not copied: it must outlive the input); name is
 * used in messages. Never fails. */
struct jh_input *jh_input_mem(const void *data, size_t n, const char *name);
void jh_input_close(struct jh_input *in);

/*
 * jh_input_line in two halves, for readers' hot loops: _buffered returns 1
 * with the next line when it is complete in the buffer, else 0 (the buffer
 * must be refilled, or the line holds a NUL byte); then, and only then,
 * _refill does the rest of jh_input_line. Lines returned by _buffered stay
 * valid (in place) until the next _refill or jh_input_line, so a caller can
 * keep several.
 */
int jh_input_line_buffered(struct jh_input *in, char **line, size_t *len);
int jh_input_line_refill(struct jh_input *in, char **line, size_t *len, struct jh_diag *d);
/*
 * Next line: returns 1 with *line and *len set (valid until the next call; the
 * line is NUL-terminated: (*line)[*len] == 0), 0 at end
 * of input, -1 with d set on a read, decompression or NUL-byte error. Inline:
 * a line already in the buffer is taken without a call into the refill.
 */
static inline int jh_input_line(struct jh_input *in, char **line, size_t *len, struct jh_diag *d)
{
	return jh_input_line_buffered(in, line, len) ? 1 : jh_input_line_refill(in, line, len, d);
}
/* 1-based number of the line last returned (0 before the first). */
unsigned long jh_input_lineno(const struct jh_input *in);
/* 1 if the line last returned was the last one and had no '\n'. */
int jh_input_unterminated(const struct jh_input *in);
/* The name given at open ("-" for stdin). */
const char *jh_input_name(const struct jh_input *in);
/* Total (decompressed) bytes handed out so far, newlines included. */
uint64_t jh_input_bytes(const struct jh_input *in);

/* The first bytes of the (decompressed) input, not consumed: *p, *n (at
 * least 64 unless the input is shorter). 0, or -1 with d set. */
int jh_input_peek(struct jh_input *in, const unsigned char **p, size_t *n, struct jh_diag *d);
/* Appends the rest of the (decompressed) input to out; -1 with d set when
 * it is over max bytes or on a read error. */
int jh_input_slurp(struct jh_input *in, struct jh_sb *out, size_t max, struct jh_diag *d);

#endif
