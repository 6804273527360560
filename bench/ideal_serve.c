/*
 * ideal_serve: a serve loop with no cost but the one it is given, to show what the program
 * reading the answers does to serve's figures (bench/reader-bound runs it).
 *
 *   ideal_serve THREADS MICROSECONDS ANSWER-FILE < lines
 *
 * Counts the lines on standard input, then THREADS threads each take every THREADS-th line,
 * spend MICROSECONDS of their own CPU time on it (a busy loop on the thread's CPU clock, whose
 * reads are system calls: a little more, some 0.5 us here) and append the first line of
 * ANSWER-FILE to a buffer of their own, written to standard output whenever it passes 32 KiB. Nothing is shared but the write: the threads
 * scale perfectly, so any shortfall from THREADS times one thread's rate is the reader's.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { FLUSH_BYTES = 32768, MAX_THREADS = 64 };

static int threads, lines;
static double cost_us;
static char *answer;
static size_t answer_length;
static pthread_mutex_t output = PTHREAD_MUTEX_INITIALIZER;

static double thread_cpu_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void write_all(const char *bytes, size_t length) {
  pthread_mutex_lock(&output);
  while (length > 0) {
    ssize_t n = write(STDOUT_FILENO, bytes, length);
    if (n <= 0) break;
    bytes += n;
    length -= (size_t)n;
  }
  pthread_mutex_unlock(&output);
}

static void *lane(void *arg) {
  long first = (long)arg;
  size_t capacity = FLUSH_BYTES + answer_length, used = 0;
  char *buffer = malloc(capacity);
  if (!buffer) return NULL;
  for (long i = first; i < lines; i += threads) {
    double start = thread_cpu_us();
    while (thread_cpu_us() - start < cost_us) {}
    memcpy(buffer + used, answer, answer_length);
    used += answer_length;
    if (used > FLUSH_BYTES) {
      write_all(buffer, used);
      used = 0;
    }
  }
  write_all(buffer, used);
  free(buffer);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: ideal_serve THREADS MICROSECONDS ANSWER-FILE < lines\n");
    return 2;
  }
  threads = atoi(argv[1]);
  cost_us = atof(argv[2]);
  if (threads < 1 || threads > MAX_THREADS) {
    fprintf(stderr, "ideal_serve: THREADS is 1 to %d\n", MAX_THREADS);
    return 2;
  }
  FILE *file = fopen(argv[3], "r");
  static char first_line[65536];
  if (!file || !fgets(first_line, sizeof first_line, file)) {
    fprintf(stderr, "ideal_serve: cannot read an answer line from %s\n", argv[3]);
    return 2;
  }
  fclose(file);
  answer = first_line;
  answer_length = strlen(first_line);
  static char line[1 << 16];
  while (fgets(line, sizeof line, stdin)) lines++;
  pthread_t lanes[MAX_THREADS];
  for (long i = 0; i < threads; i++) pthread_create(&lanes[i], NULL, lane, (void *)i);
  for (int i = 0; i < threads; i++) pthread_join(lanes[i], NULL);
  return 0;
}
