/* tmp_registry.h — the files and directories io/output.c is creating,
 * removed when a signal ends the process before they are complete.
 *
 * io/output.c registers each temporary file right after creating it (and a
 * directory it created for logs), and unregisters it once it is renamed
 * into place or removed: only what the module created is ever listed, so
 * a handler removes nothing of the user's.  Registering and unregistering
 * are lock-free (any thread; never blocks) and cost a few atomic
 * operations.
 *
 * tmpreg_on_signals() is the program's choice, not the library's: it
 * installs, for SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM, SIGXCPU
 * and SIGXFSZ whose action is still the default (a signal the program
 * inherited as ignored stays ignored), a handler that removes every listed
 * file, then every listed directory that is empty (rmdir), and raises the
 * signal again with its default action: the process ends as the signal
 * would have ended it (the same exit status, a core for SIGQUIT).  The
 * handler calls only async-signal-safe functions (unlink, rmdir, raise)
 * and lock-free atomics. */
#ifndef ISOCHECK_TMP_REGISTRY_H
#define ISOCHECK_TMP_REGISTRY_H

#include <signal.h>

typedef struct tmpreg_slot tmpreg_slot;

/* List path (copied) as a file to unlink (is_dir 0) or a directory to
 * rmdir (is_dir 1).  Returns its slot, for tmpreg_remove. */
tmpreg_slot *tmpreg_add(const char *path, int is_dir);
/* Take a path off the list (NULL: nothing). */
void tmpreg_remove(tmpreg_slot *slot);

/* The signals the handler covers, for blocking them around a file's
 * creation and its registration. */
void tmpreg_signals(sigset_t *set);

/* What the handler does before it raises the signal again: remove every
 * listed file, then every listed directory that is empty.  Async-signal-
 * safe, for a program's own handler (gsat's second SIGINT); the process
 * must end right after (the list is left as it was). */
void tmpreg_unlink_all(void);

/* Install the handler (see above); idempotent. */
void tmpreg_on_signals(void);

#endif
