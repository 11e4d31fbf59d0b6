/* jepsen_times.h — the real times of a Jepsen/Elle history (EDN or JSON),
 * collected while jepsen_ops.c reads it and given to the builder at the
 * end (doc/formats.md, "Times").
 *
 * A client's :invoke is paired with the next completion of its :process.
 * TIME_INVOKE is the invocation's stamp, TIME_COMPLETE the completion's
 * (not for :info: an indeterminate transaction never completed).  The
 * stamp is :index, the operation's position in the history, when every
 * invocation and :ok/:fail completion has one: Jepsen logs operations in
 * real-time order and Elle's own real-time graph is that order.  Else it
 * is :time (Jepsen's nanoseconds) when any of them has an integer :time,
 * else :index.  The two are never mixed: an operation without the chosen
 * stamp gives no time (a note counts them), and when no invocation has
 * it there are no times at all.  A completion without a pending
 * invocation (no :process, or none before it) has no invocation time.  A
 * completion stamped before its invocation is bad input at the
 * completion's line. */
#ifndef ISOCHECK_JEPSEN_TIMES_H
#define ISOCHECK_JEPSEN_TIMES_H

#include <stdint.h>

#include "error.h"
#include "frontend/history/history.h"
#include "frontend/history/load_report.h"
#include "frontend/formats/optree.h"

/* An operation's stamps: has & JT_TIME: an integer :time, & JT_INDEX:
 * an integer :index. */
enum { JT_TIME = 1, JT_INDEX = 2 };
typedef struct jt_stamp { int64_t time, index; uint8_t has; } jt_stamp;

/* The stamps of an operation whose :time and :index are the nodes tn and
 * in (OV_NONE: absent): each an integer (not HISTORY_TIME_NONE) or none. */
jt_stamp jt_stamp_of(const optree *t, uint32_t tn, uint32_t in);
/* A completion's database timestamps, :ts {:rts START :cts COMMIT}
 * (dbcdc-runner's names; JSON "ts": {"rts": ..., "cts": ...}), the node
 * ts, into builder transaction txn; nil: none.  0 with err set
 * (source:line) on a value that is not such a map, a timestamp that is
 * not an integer, or a commit before its start. */
int jt_db_times(const optree *t, uint32_t ts, history_builder *b, uint32_t txn, const char *source, ic_error *err);

typedef struct jepsen_times jepsen_times;

jepsen_times *jt_new(void);
void jt_free(jepsen_times *jt);
/* Client process's invocation, stamped s (replaces a pending one). */
void jt_invoke(jepsen_times *jt, int64_t process, jt_stamp s);
/* A completion that became builder transaction txn at line; client: it
 * has a process (then its pending invocation is taken); info: :info. */
void jt_complete(jepsen_times *jt, int client, int64_t process, uint32_t txn, int info, jt_stamp s, uint32_t line);
/* Choose the stamp, check the order, set the builder's times.  0 with
 * err set (source:line) on a completion stamped before its invocation.
 * json: name the fields in JSON syntax in messages. */
int jt_finish(jepsen_times *jt, history_builder *b, load_report *rep, const char *source, int json, ic_error *err);

#endif
