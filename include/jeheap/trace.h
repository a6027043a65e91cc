/*
 * jh_trace.h - JH_TRACE=1: timestamped progress lines on stderr (seconds
 * since the process started, thread, the thread's CPU seconds, the
 * process's peak RSS and minor page faults so far, event), to see where a
 * run's critical path and its memory go. Off unless the variable is set;
 * one getenv per process.
 */
#ifndef JEHEAP_TRACE_H
#define JEHEAP_TRACE_H

#include "jeheap/base.h"

int jh_trace_on(void);
void jh_trace(const char *fmt, ...) JH_PRINTF(1, 2);

#define JH_TRACE(...)                          \
	do {                                   \
		if (jh_trace_on())             \
			jh_trace(__VA_ARGS__); \
	} while (0)

#endif
