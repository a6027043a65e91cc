/*
 * demo.c - the program examples/ci/memory-gate.sh gates: a small request loop.
 * Usage: demo N (handles N requests). Built with -DLEAK it forgets to free each
 * request's reply buffer (the bug the gate must catch); without, memory in use at
 * exit does not depend on N.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct request {
	char *body;
	size_t len;
};

static __attribute__((noinline)) char *make_reply(const struct request *r)
{
	char *reply = malloc(r->len + 1024);
	if (!reply)
		exit(1);
	memcpy(reply, r->body, r->len);
	memset(reply + r->len, 'x', 1024);
	return reply;
}

static __attribute__((noinline)) unsigned handle(size_t i)
{
	struct request r = { malloc(256), 256 };
	if (!r.body)
		exit(1);
	memset(r.body, (int)(i & 0x7f), r.len);
	char *reply = make_reply(&r);
	unsigned sum = (unsigned char)reply[i % (r.len + 1024)];
#ifndef LEAK
	free(reply);
#endif
	free(r.body);
	return sum;
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 100;
	void *cache = malloc(64 << 10); /* in use in every run: not growth */
	unsigned sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += handle(i);
	printf("%zu requests, checksum %u\n", n, sum);
	free(cache);
	return 0;
}
