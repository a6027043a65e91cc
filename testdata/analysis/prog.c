#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
void *sink[100000]; int ns;
__attribute__((noinline)) void *leaf_alloc(size_t n) { void *p = malloc(n); memset(p, 1, n); return p; }
static inline void inl_helper(int k) { sink[ns++] = calloc(k, 100); }
__attribute__((noinline)) void inlined_caller(int k) { for (int i = 0; i < k; i++) inl_helper(i + 1); }
__attribute__((noinline)) void rec(int d) { if (d == 0) { for (int i=0;i<200;i++) sink[ns++] = leaf_alloc(1000 + i); return; } rec(d - 1); __asm__ volatile(""); }
__attribute__((noinline)) void realloc_site(void) { void *p = NULL; for (int i = 1; i < 50; i++) p = realloc(p, i * 10000); sink[ns++] = p; }
void *worker(void *a) { (void)a; rec(5); inlined_caller(300); return NULL; }
int main(int argc, char **argv) { (void)argv;
  pthread_t t[2];
  for (int i = 0; i < 2; i++) if (i < argc) pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < 2 && i < argc; i++) pthread_join(t[i], NULL);
  realloc_site();
  for (int i = 0; i < 1000; i++) { void *p = malloc(50); free(p); }
  return 0;
}
