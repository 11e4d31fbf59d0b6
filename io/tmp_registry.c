/* tmp_registry.c — temporary outputs removed on a fatal signal (contract
 * in tmp_registry.h).
 *
 * The list is chunks of slots, each slot an atomic pointer to a copy of a
 * path prefixed by its kind ('f' unlink, 'd' rmdir).  Chunks are added
 * with a compare-and-swap and never freed, so the handler can walk them at
 * any moment.  A path taken off the list is freed unless the handler has
 * started (it may be reading it): removal stores NULL then reads
 * `in_handler`, the handler sets `in_handler` then reads the slots, all
 * sequentially consistent, so one of the two sees the other. */
#include "io/tmp_registry.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vec.h"

_Static_assert(ATOMIC_POINTER_LOCK_FREE == 2 && ATOMIC_INT_LOCK_FREE == 2,
               "the signal handler needs lock-free atomics");

#define CHUNK_SLOTS 64

struct tmpreg_slot { _Atomic(char *) path; };

typedef struct chunk {
    struct tmpreg_slot slot[CHUNK_SLOTS];
    struct chunk *_Atomic next;
} chunk;

static chunk first;
static atomic_int in_handler;

static const int covered[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM, SIGXCPU, SIGXFSZ };

tmpreg_slot *tmpreg_add(const char *path, int is_dir) {
    size_t n = strlen(path);
    char *copy = xmalloc(n + 2);
    copy[0] = is_dir ? 'd' : 'f';
    memcpy(copy + 1, path, n + 1);
    for (chunk *c = &first;;) {
        for (int i = 0; i < CHUNK_SLOTS; i++) {
            char *none = NULL;
            if (atomic_compare_exchange_strong(&c->slot[i].path, &none, copy)) return &c->slot[i];
        }
        chunk *next = atomic_load(&c->next);
        if (!next) {
            chunk *fresh = xmalloc(sizeof *fresh);
            for (int i = 0; i < CHUNK_SLOTS; i++) atomic_init(&fresh->slot[i].path, NULL);
            atomic_init(&fresh->next, NULL);
            if (atomic_compare_exchange_strong(&c->next, &next, fresh)) next = fresh;
            else free(fresh);                     /* another thread linked one: next is it */
        }
        c = next;
    }
}

void tmpreg_remove(tmpreg_slot *slot) {
    if (!slot) return;
    char *p = atomic_exchange(&slot->path, NULL);
    if (p && !atomic_load(&in_handler)) free(p);  /* else the handler may be reading it: the process ends anyway */
}

void tmpreg_signals(sigset_t *set) {
    sigemptyset(set);
    for (size_t i = 0; i < sizeof covered / sizeof *covered; i++) sigaddset(set, covered[i]);
}

/* Files first, then the directories they were in. */
void tmpreg_unlink_all(void) {
    atomic_store(&in_handler, 1);
    for (int pass = 0; pass < 2; pass++)
        for (chunk *c = &first; c; c = atomic_load(&c->next))
            for (int i = 0; i < CHUNK_SLOTS; i++) {
                const char *p = atomic_load(&c->slot[i].path);
                if (!p) continue;
                if (pass == 0 && p[0] == 'f') unlink(p + 1);
                if (pass == 1 && p[0] == 'd') rmdir(p + 1);
            }
}

static void on_signal(int sig) {
    tmpreg_unlink_all();
    raise(sig);          /* the action is the default again (SA_RESETHAND): delivered as this handler returns */
}

void tmpreg_on_signals(void) {
    static atomic_int installed;
    if (atomic_exchange(&installed, 1)) return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    tmpreg_signals(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    for (size_t i = 0; i < sizeof covered / sizeof *covered; i++) {
        struct sigaction old;
        if (sigaction(covered[i], NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL)
            sigaction(covered[i], &sa, NULL);
    }
}
