/* gen_writer.h — where generated transactions go.
 *
 * Streaming writers (constant memory, any size):
 *   text   one line per op in commit order (sessions interleaved, each
 *          session in its order); aborted transactions are left out, as
 *          the format cannot hold them (their writes, if read, then show as
 *          values nobody wrote).
 *   dbcop  per-session spools, then the file session by session; the same
 *          bytes frontend/formats/write_dbcop.c writes for the same history
 *          (one layout for both: frontend/history/dbcop_layout.h).
 * The model sink builds a `history` through frontend/history/history.h's builder
 * (for cobra and elle, which go through frontend/formats/write_*.c, and for tests).
 * A regular output file is written under a temporary name and renamed into
 * place on success, so a failed run leaves no half-written file; anything
 * else (/dev/null, a pipe) is written in place. */
#ifndef WORKLOAD_GEN_WRITER_H
#define WORKLOAD_GEN_WRITER_H

#include "workload/workload.h"
#include "frontend/history/history.h"

typedef struct gen_writer gen_writer;

/* fmt: FORMAT_TEXT or FORMAT_DBCOP.  path "-": stdout (text only).  The
 * dbcop spool lies beside a regular output file, else (a device, a FIFO)
 * in temp_dir (NULL: /tmp); the program chooses it ($TMPDIR). */
gen_writer *gen_writer_open(history_format fmt, const char *path, const workload_params *p, const char *temp_dir,
                            ic_error *err);
sim_sink gen_writer_sink(gen_writer *w);
/* The times sink (sim_run_timed) that makes w write each transaction's
 * times (text only: a "#@time" line after its operations,
 * frontend/formats/text_times.h). */
sim_times_sink gen_writer_times(gen_writer *w);
/* Finish (ok: the run succeeded) and free.  1 if the file is complete. */
int gen_writer_close(gen_writer *w, int ok, ic_error *err);

typedef struct model_sink model_sink;
/* committed_only: leave out aborted transactions (for text). */
model_sink *model_sink_new(const char *source, uint32_t sessions, int committed_only);
/* The times sink (sim_run_timed) that gives each transaction its times
 * (history.h's four kinds; an aborted one has no commit timestamp). */
sim_times_sink model_sink_times(model_sink *m);
sim_sink model_sink_sink(model_sink *m);
/* The history (NULL with err set if the builder rejects it); frees m. */
history *model_sink_finish(model_sink *m, ic_error *err);

#endif
