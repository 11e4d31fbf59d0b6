/* spool.h — per-session output streams for formats that group a history
 * by session (dbcop) while the simulator produces transactions in commit
 * order.  Each stream has an in-memory buffer; full buffers go as chunks
 * to one unlinked temporary file next to the output, and spool_copy()
 * replays a stream's chunks in order.  Memory: n_streams * buffer. */
#ifndef WORKLOAD_SPOOL_H
#define WORKLOAD_SPOOL_H

#include <stddef.h>
#include <stdio.h>

#include "error.h"

typedef struct spool spool;

/* dir: where the temporary file goes; buffer: bytes per stream (0: 64 MB
 * shared, 4 KB..1 MB each).  NULL with err set on failure. */
spool *spool_new(unsigned n_streams, const char *dir, size_t buffer, ic_error *err);
void spool_write(spool *sp, unsigned stream, const void *data, size_t len);
/* Append stream's bytes to out, in the order written.  0 on I/O error. */
int spool_copy(spool *sp, unsigned stream, FILE *out);
/* 0 if any write to the temporary file failed. */
int spool_ok(const spool *sp);
void spool_free(spool *sp);

#endif
