/* interrupt.c — a flag for SIGINT and SIGTERM (contract in interrupt.h). */
#include "programs/interrupt.h"

#include <signal.h>
#include <string.h>

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

void interrupt_install(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NUM_CAUGHT; i++) sigaddset(&sa.sa_mask, caught[i]);
    sa.sa_flags = SA_RESTART;
    for (size_t i = 0; i < NUM_CAUGHT; i++) {
        if (installed[i]) continue;
        struct sigaction old;
        if (sigaction(caught[i], NULL, &old) != 0) continue;
        if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN) continue;   /* ignored stays ignored */
        before[i] = old;
        if (sigaction(caught[i], &sa, NULL) == 0) installed[i] = 1;
    }
}

void interrupt_restore(void) {
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
