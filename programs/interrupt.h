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
/* On (1) while a history loads: the handler without SA_RESTART and the
 * reader's interrupt hook set (io/reader.h: reader_set_interrupt), so that
 * a read waiting on a pipe returns at the signal and the load ends with a
 * read error within one block; off (0): SA_RESTART again, no hook.
 * Installs the handler if it is not yet (interrupt_install). */
void interrupt_loading(int on);
void interrupt_restore(void);
/* The watchdog.  interrupt_install also starts (once) a thread that
 * holds no signal and wakes every 20 ms: 0.5 s after it first sees the
 * flag set, while installed (until interrupt_restore) and unless the
 * answer is being printed (interrupt_reporting(1); install clears it),
 * it prints "STOPPED by SIGINT while STAGE" and "no verdict: stopped
 * [after N transactions], while STAGE" on stdout, removes the temporary
 * outputs (io/tmp_registry.h) and ends the process with
 * interrupt_exit_code().  So a stage that never polls the flag (indexing,
 * building a level's graph, pruning, re-checking a model) still stops
 * promptly, saying where it was; the stages that poll end sooner and say
 * more.  interrupt_stage(what, level): where the run is now (static
 * strings; level NULL: none); interrupt_stage_txns(n): the transactions
 * known (loaded).  Each costs an atomic store. */
void interrupt_stage(const char *what, const char *level);
void interrupt_stage_txns(unsigned long long txns);
void interrupt_reporting(int on);
int interrupt_signal(void);
int interrupt_stop(void *ctx);
/* 128 + the signal caught (0 if none). */
int interrupt_exit_code(void);
/* "SIGINT", "SIGTERM" (or "a signal"). */
const char *interrupt_name(void);

#endif
