/* interrupt.c — a flag for SIGINT and SIGTERM (contract in interrupt.h). */
#include "programs/interrupt.h"

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "monotonic.h"
#include "io/reader.h"
#include "io/tmp_registry.h"


static const int caught[] = { SIGINT, SIGTERM };
#define NUM_CAUGHT (sizeof caught / sizeof *caught)

static volatile sig_atomic_t got;
static struct sigaction before[NUM_CAUGHT];
static int installed[NUM_CAUGHT];

/* The first signal: the flag.  A second: the action from before, at once. */
static void on_signal(int sig) {
    if (!got) { got = sig; return; }
    for (size_t i = 0; i < NUM_CAUGHT; i++)
        if (caught[i] == sig) sigaction(sig, &before[i], NULL);
    raise(sig);          /* blocked while this handler runs: delivered to that action as it returns */
}

static int loading;               /* interrupt_loading(1): no SA_RESTART, the reader's hook set */

/* The handler on every caught signal not inherited as ignored (again, for
 * those installed: the flags change). */
static void set_actions(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NUM_CAUGHT; i++) sigaddset(&sa.sa_mask, caught[i]);
    sa.sa_flags = loading ? 0 : SA_RESTART;
    for (size_t i = 0; i < NUM_CAUGHT; i++) {
        if (installed[i]) { sigaction(caught[i], &sa, NULL); continue; }
        struct sigaction old;
        if (sigaction(caught[i], NULL, &old) != 0) continue;
        if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN) continue;   /* ignored stays ignored */
        before[i] = old;
        if (sigaction(caught[i], &sa, NULL) == 0) installed[i] = 1;
    }
}

/* ---- the watchdog: a stage that does not poll ---------------------------- */

static _Atomic(const char *) stage_what;     /* interrupt_stage: a static string, or NULL */
static _Atomic(const char *) stage_level;
static atomic_ullong stage_txns = ULLONG_MAX;
static atomic_int reporting;                 /* interrupt_reporting(1): the answer is being printed */
static atomic_int armed;                     /* between interrupt_install and interrupt_restore */
static pthread_once_t watch_once = PTHREAD_ONCE_INIT;

#define WATCH_TICK_NS 20000000L               /* 20 ms */
#define WATCH_GRACE 0.5                       /* seconds after the signal was seen */

static void *watch(void *arg) {
    (void)arg;
    struct timespec tick = { 0, WATCH_TICK_NS };
    double seen = 0;                           /* when the flag was first seen (0: not yet) */
    for (;;) {
        nanosleep(&tick, NULL);
        if (!got || !atomic_load(&armed) || atomic_load(&reporting)) { seen = 0; continue; }
        if (!seen) seen = monotonic_seconds();
        if (monotonic_seconds() - seen < WATCH_GRACE) continue;
        const char *what = atomic_load(&stage_what), *level = atomic_load(&stage_level);
        unsigned long long n = atomic_load(&stage_txns);
        char known[96] = "";
        if (n != ULLONG_MAX) snprintf(known, sizeof known, " after %llu transactions,", n);
        char where[160];
        snprintf(where, sizeof where, "%s%s%s%s", what ? what : "working", level ? " (level " : "", level ? level : "", level ? ")" : "");
        printf("STOPPED by %s while %s\nno verdict: stopped%s while %s\n", interrupt_name(), where, known, where);
        fflush(stdout);
        tmpreg_unlink_all();
        _exit(interrupt_exit_code());
    }
    return NULL;
}

static void start_watch(void) {
    pthread_t t;
    pthread_attr_t at;
    if (pthread_attr_init(&at) != 0) return;
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    sigset_t all, old;                         /* the signals go to the main thread, never to this one */
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    pthread_create(&t, &at, watch, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&at);
}

void interrupt_stage(const char *what, const char *level) {
    atomic_store(&stage_what, what);
    atomic_store(&stage_level, level);
}

void interrupt_stage_txns(unsigned long long txns) { atomic_store(&stage_txns, txns); }

void interrupt_reporting(int on) { atomic_store(&reporting, on != 0); }

void interrupt_install(void) {
    set_actions();
    atomic_store(&reporting, 0);
    atomic_store(&armed, 1);
    pthread_once(&watch_once, start_watch);
}

void interrupt_loading(int on) {
    loading = on != 0;
    reader_set_interrupt(loading ? interrupt_stop : NULL, NULL);
    set_actions();
}

void interrupt_restore(void) {
    atomic_store(&armed, 0);
    if (loading) { loading = 0; reader_set_interrupt(NULL, NULL); }
    for (size_t i = 0; i < NUM_CAUGHT; i++)
        if (installed[i]) {
            sigaction(caught[i], &before[i], NULL);
            installed[i] = 0;
        }
}

int interrupt_signal(void) { return got; }

int interrupt_stop(void *ctx) {
    (void)ctx;
    return got != 0;
}

int interrupt_exit_code(void) { return got ? 128 + got : 0; }

const char *interrupt_name(void) {
    return got == SIGINT ? "SIGINT" : got == SIGTERM ? "SIGTERM" : "a signal";
}
