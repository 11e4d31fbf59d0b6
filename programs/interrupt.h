/* interrupt.h — SIGINT and SIGTERM during a long `isocheck check` (batch,
 * or --follow): the first one only raises a flag that the loops poll (the
 * follow loop between reads and checks, the solver after each conflict:
 * check_options.stop), so that the command ends by printing what it knows
 * ("no verdict: ...") with exit code 128 + the signal's number (130 for
 * SIGINT, 143 for SIGTERM: what a shell reports for a process the signal
 * ended).  A second one is not waited for: the action that was there
 * before (io/tmp_registry.h's, which removes the temporary outputs, then
 * ends the process by the signal) takes it.
 *
 * Contract
 *   - interrupt_install(): for SIGINT and SIGTERM whose action is not
 *     "ignore" (a signal the program inherited as ignored stays ignored),
 *     a handler that stores the signal's number in a volatile sig_atomic_t
 *     and nothing else (async-signal-safe); SA_RESTART, so that reads and
 *     writes in progress go on (the follow loop waits in poll() and
 *     nanosleep(), which a signal ends anyway).  Idempotent.
 *   - interrupt_restore(): the actions from before interrupt_install.
 *   - interrupt_signal(): 0, or the number of the first signal caught;
 *     interrupt_stop() is the same as a check_options.stop / follow_config
 *     stop callback (ctx unused). */
#ifndef ISOCHECK_INTERRUPT_H
#define ISOCHECK_INTERRUPT_H

void interrupt_install(void);
void interrupt_restore(void);
int interrupt_signal(void);
int interrupt_stop(void *ctx);
/* 128 + the signal caught (0 if none). */
int interrupt_exit_code(void);
/* "SIGINT", "SIGTERM" (or "a signal"). */
const char *interrupt_name(void);

#endif
