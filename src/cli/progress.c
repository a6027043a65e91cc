/*
 * progress.c - the symbolization progress meter (progress.h). The
 * symbolizer reports through a callback; a drawing thread shows the latest
 * report every 200 ms once the delay has passed, so that one slow module
 * still shows a meter.
 */
#include "progress.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t meter_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t meter_wake = PTHREAD_COND_INITIALIZER;

static struct {
	pthread_t thread;
	int running, stop, drawn, reported;
	struct jh_sym_progress last;
	struct timespec start;
	long delay_ms;
} meter;

static long elapsed_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - meter.start.tv_sec) * 1000 + (t.tv_nsec - meter.start.tv_nsec) / 1000000;
}

/* With meter_lock held. */
static void draw(void)
{
	const struct jh_sym_progress *p = &meter.last;
	if (!meter.reported)
		return;
	fprintf(stderr,
		"\rjeheap: symbolizing: %zu/%zu modules, %zu/%zu addresses, %.1f MB of DWARF\033[K",
		p->modules_done, p->modules, p->addrs_done, p->addrs, p->dwarf_bytes / 1048576.0);
	fflush(stderr);
	meter.drawn = 1;
}

/* With meter_lock held. */
static void erase(void)
{
	if (!meter.drawn)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	meter.drawn = 0;
}

static void on_progress(void *ctx, const struct jh_sym_progress *p)
{
	(void)ctx;
	pthread_mutex_lock(&meter_lock);
	meter.last = *p;
	meter.reported = 1;
	pthread_mutex_unlock(&meter_lock);
}

static void *drawer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&meter_lock);
	while (!meter.stop) {
		long e = elapsed_ms();
		long wait = e < meter.delay_ms ? meter.delay_ms - e : 200;
		if (e >= meter.delay_ms)
			draw();
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += wait / 1000;
		until.tv_nsec += (wait % 1000) * 1000000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		if (!meter.stop)
			pthread_cond_timedwait(&meter_wake, &meter_lock, &until);
	}
	pthread_mutex_unlock(&meter_lock);
	return NULL;
}

void jh_progress_begin(struct jh_symbolizer_opts *so)
{
	const char *term = getenv("TERM");
	if (!isatty(2) || (term && !strcmp(term, "dumb")))
		return;
	const char *d = getenv("JH_PROGRESS_DELAY");
	meter.delay_ms = d && *d ? strtol(d, NULL, 10) : 1000;
	if (meter.delay_ms < 0)
		meter.delay_ms = 0;
	clock_gettime(CLOCK_MONOTONIC, &meter.start);
	meter.stop = meter.drawn = meter.reported = 0;
	if (pthread_create(&meter.thread, NULL, drawer, NULL))
		return;
	meter.running = 1;
	so->progress = on_progress;
	so->progress_ctx = NULL;
}

void jh_progress_end(void)
{
	if (!meter.running)
		return;
	pthread_mutex_lock(&meter_lock);
	meter.stop = 1;
	pthread_cond_signal(&meter_wake);
	pthread_mutex_unlock(&meter_lock);
	pthread_join(meter.thread, NULL);
	meter.running = 0;
	/* a run that ended between two redraws after the delay still shows its last
	 * state (modules now read their DWARF between two reports: the last redraw
	 * may be older than the last report) */
	if (elapsed_ms() >= meter.delay_ms)
		draw();
	erase();
}

void jh_progress_interrupt(void)
{
	pthread_mutex_lock(&meter_lock);
	erase();
	pthread_mutex_unlock(&meter_lock);
}
