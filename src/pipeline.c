/* pipeline.c - options -> model -> analysis -> report. */
#include "jeheap/model.h"

int jh_run(const struct jh_options *o, struct jh_diag *d)
{
	(void)o;
	jh_diag_set(d, JH_EXIT_INTERNAL, NULL, 0, "analysis is not built yet");
	return JH_EXIT_INTERNAL;
}
