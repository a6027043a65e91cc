/*
 * progress.h - the symbolization progress meter: one line on standard error,
 * redrawn in place (\r), shown only when standard error is a terminal whose
 * TERM is not "dumb", and only once symbolization has taken longer than a
 * second (JH_PROGRESS_DELAY=MS changes that delay, for tests); erased when
 * symbolization ends.
 */
#ifndef JEHEAP_CLI_PROGRESS_H
#define JEHEAP_CLI_PROGRESS_H

#include "jeheap/symbolize.h"

/* Hooks the meter into so (when it can be shown) and starts its clock. */
void jh_progress_begin(struct jh_symbolizer_opts *so);
/* Erases the meter and stops it; safe when it never started. */
void jh_progress_end(void);
/* Erases the meter line, if drawn, before another message is printed. */
void jh_progress_interrupt(void);

#endif
