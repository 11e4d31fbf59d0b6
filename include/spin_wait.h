/* spin_wait.h — wait for a flag another thread is about to set.
 *
 * spin_wait_nonzero(flag): the flag's first nonzero value, loaded with
 * acquire order.  The waiter spins (a pause a turn) for a short wait,
 * then yields (the setter may be off the processor), then sleeps 20 µs a
 * turn: on a loaded host the setter can be off for milliseconds, and a
 * waiter that only yields spins through the system call all that while
 * (reach.c's rows, 1M si,ser on 2 cores at load 9: a twentieth of the
 * run's CPU).  Use it only where the wait is known to be short on an idle
 * host.  Header-only on libc, so every layer may use it. */
#ifndef ISOCHECK_SPIN_WAIT_H
#define ISOCHECK_SPIN_WAIT_H

#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

static inline void spin_wait_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

enum { SPIN_WAIT_SPINS = 256, SPIN_WAIT_YIELDS = 64 };

static inline unsigned spin_wait_nonzero(_Atomic uint8_t *flag) {
    unsigned v;
    for (unsigned turn = 0; !(v = atomic_load_explicit(flag, memory_order_acquire)); turn++)
        if (turn < SPIN_WAIT_SPINS) spin_wait_pause();
        else if (turn < SPIN_WAIT_SPINS + SPIN_WAIT_YIELDS) sched_yield();
        else nanosleep(&(struct timespec){ 0, 20000 }, NULL);
    return v;
}

#endif
