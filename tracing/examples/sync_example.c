/* A plain pthreads program that waits in every way libparallax-pthread.so records: condition
 * variables, barriers, read/write locks and semaphores. It prints how many condition-variable
 * and barrier waits it made, so a test can compare them with the trace. Usage:
 * pxt_example_sync. */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <time.h>

enum { kThreads = 3, kBarrierRounds = 5, kRounds = 3 };

static pthread_barrier_t barrier;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static pthread_rwlock_t rwlock = PTHREAD_RWLOCK_INITIALIZER;
static sem_t sem;
static int ready = 0;
static int waiting = 0;    /* the waiter is in pthread_cond_wait (under mutex) */
static int cond_waits = 0; /* under mutex */
static volatile int reader_started = 0;

static void SleepMs(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

static void* BarrierWorker(void* arg) {
  (void)arg;
  for (int i = 0; i < kBarrierRounds; ++i) pthread_barrier_wait(&barrier);
  return NULL;
}

/* Waits on the condition variable until the main thread sets `ready`. */
static void* CondWaiter(void* arg) {
  (void)arg;
  pthread_mutex_lock(&mutex);
  while (!ready) {
    ++cond_waits;
    waiting = 1; /* pthread_cond_wait releases the mutex only once it waits */
    pthread_cond_wait(&cond, &mutex);
  }
  pthread_mutex_unlock(&mutex);
  return NULL;
}

static void* Reader(void* arg) {
  (void)arg;
  reader_started = 1;
  pthread_rwlock_rdlock(&rwlock); /* the main thread holds the write lock: a wait */
  pthread_rwlock_unlock(&rwlock);
  return NULL;
}

static void* Poster(void* arg) {
  (void)arg;
  SleepMs(200);
  sem_post(&sem); /* the main thread is waiting in sem_wait by now */
  return NULL;
}

int main(void) {
  pthread_t t[kThreads];
  /* Barriers: kThreads workers and the main thread meet kBarrierRounds times. */
  pthread_barrier_init(&barrier, NULL, kThreads + 1);
  for (int i = 0; i < kThreads; ++i) pthread_create(&t[i], NULL, BarrierWorker, NULL);
  for (int i = 0; i < kBarrierRounds; ++i) pthread_barrier_wait(&barrier);
  for (int i = 0; i < kThreads; ++i) pthread_join(t[i], NULL);
  pthread_barrier_destroy(&barrier);

  /* Condition variable: the main thread signals once the waiter waits (whatever the load). */
  pthread_t w;
  pthread_create(&w, NULL, CondWaiter, NULL);
  pthread_mutex_lock(&mutex);
  while (!waiting) {
    pthread_mutex_unlock(&mutex);
    SleepMs(1);
    pthread_mutex_lock(&mutex);
  }
  ready = 1;
  pthread_cond_broadcast(&cond);
  pthread_mutex_unlock(&mutex);
  pthread_join(w, NULL);

  /* Read/write lock and semaphore: kRounds rounds in which the other side holds for 200 ms
   * (the reader is started before the hold begins). */
  sem_init(&sem, 0, 0);
  for (int r = 0; r < kRounds; ++r) {
    pthread_t reader, poster;
    pthread_rwlock_wrlock(&rwlock);
    reader_started = 0;
    pthread_create(&reader, NULL, Reader, NULL);
    while (!reader_started) SleepMs(1);
    SleepMs(200);
    pthread_rwlock_unlock(&rwlock);
    pthread_join(reader, NULL);
    pthread_create(&poster, NULL, Poster, NULL);
    sem_wait(&sem);
    pthread_join(poster, NULL);
  }
  sem_destroy(&sem);
  printf("barrier_waits %d cond_waits %d\n", (kThreads + 1) * kBarrierRounds, cond_waits);
  return 0;
}
