/*
 * jh_trace.c - JH_TRACE timestamps (jh_trace.h).
 */
#include "jeheap/trace.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* a mutex, not pthread_once: helgrind does not see once's hand-over */
static pthread_mutex_t trace_lock = PTHREAD_MUTEX_INITIALIZER;
static int trace_state; /* 0 unknown, 1 off, 2 on */
static double t0;       /* process start, seconds since boot */

/* Process start from /proc/self/stat (field 22, clock ticks since boot). */
static void trace_init(void)
{
	const char *e = getenv("JH_TRACE");
	trace_state = e && *e && *e != '0' ? 2 : 1;
	if (trace_state == 1)
		return;
	FILE *f = fopen("/proc/self/stat", "r");
	if (!f)
		return;
	char buf[1024];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	char *p = strrchr(buf, ')');
	for (int field = 2; p && *p && field < 22; p++)
		if (*p == ' ')
			field++;
	if (p)
		t0 = strtod(p, NULL) / (double)sysconf(_SC_CLK_TCK);
}

int jh_trace_on(void)
{
	pthread_mutex_lock(&trace_lock);
	if (!trace_state)
		trace_init();
	int on = trace_state == 2;
	pthread_mutex_unlock(&trace_lock);
	return on;
}

void jh_trace(const char *fmt, ...)
{
	struct timespec ts, cpu;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
	pthread_mutex_lock(&trace_lock);
	double start = t0;
	pthread_mutex_unlock(&trace_lock);
	double now = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9 - start;
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	long pages = 0, resident = 0; /* now (ru_maxrss is the peak) */
	FILE *f = fopen("/proc/self/statm", "r");
	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
			resident = 0;
		fclose(f);
	}
	fprintf(stderr, "jeheap-trace %8.3f t%ld cpu %.3f rss %ldM now %ldM flt %ld %s\n", now,
		(long)syscall(SYS_gettid) % 1000, (double)cpu.tv_sec + (double)cpu.tv_nsec / 1e9,
		ru.ru_maxrss / 1024, resident * (sysconf(_SC_PAGESIZE) / 1024) / 1024, ru.ru_minflt,
		msg);
}
