/* quiet_thread.h — start a helper thread that leaves SIGINT and SIGTERM
 * to the caller's thread.  A signal is delivered to any thread that does
 * not block it; the handlers (programs/interrupt.c) must run on the
 * thread whose blocking read they end, so every helper blocks them.  The
 * mask is set before pthread_create (the new thread inherits it) and the
 * caller's own mask restored after.  Header-only on libc, so every layer
 * may use it (the loader, the online checker).
 *
 * quiet_thread_start(tid, fn, arg): pthread_create's result (0: started). */
#ifndef ISOCHECK_QUIET_THREAD_H
#define ISOCHECK_QUIET_THREAD_H

#include <pthread.h>
#include <signal.h>

static inline int quiet_thread_start(pthread_t *tid, void *(*fn)(void *), void *arg) {
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    int rc = pthread_create(tid, NULL, fn, arg);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}

#endif
