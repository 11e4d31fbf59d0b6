/* final.h — the one rule for a PASS from the online checker's incremental
 * state: it is said only once the independent re-check (verify_model.c,
 * vo_check, which shares no code with the incremental path) accepts the
 * model's version order on the history itself.  Both users go through
 * here: the library API (api.c, each isocheck_check) and `check --follow`
 * at the end of its input (programs/cli_check.c).
 *
 * Contract
 *   - online_confirm_pass(): every wanted level's version order is checked
 *     at that level (SI as SI, SER as SER); only if all are accepted does
 *     the report get its PASS lines, one per wanted level in the batch
 *     report's order (si, then ser), stage "incremental".  Otherwise the
 *     report is untouched and the caller runs the batch pipeline.
 *   - online_final_report(): the same for the orders of a followed input
 *     (by external ids, incr_export_order), mapped onto the history the
 *     batch loader read from every byte; a key or transaction the history
 *     lacks, a named key or a transaction id given twice refuses.
 *   - Never prints, never exits. */
#ifndef ISOCHECK_ONLINE_FINAL_H
#define ISOCHECK_ONLINE_FINAL_H

#include <stddef.h>

#include "frontend/history/history.h"
#include "frontend/recheck/verify_model.h"
#include "frontend/reports/report.h"
#include "frontend/online/found.h"
#include "frontend/online/incr.h"

/* What a followed input hands its final report: at the end of a text input
 * that the incremental state covers whole and passes, the version order of
 * each wanted level's model (unless batch_only); and the anomalies printed
 * while it was followed (online_found_merge puts them in the final
 * report). */
typedef struct follow_final {
    int ready;                   /* order[] holds the models' version orders */
    incr_order order[2];         /* check_level_id */
    int batch_only;              /* the caller wants the batch check's PASS: no orders are exported */
    online_found found;          /* the anomalies reported while following (found.h), for the final report */
    int shown;                   /* a violation was reported while following and not withdrawn (follow_repeat.h) */
    int provisional;             /* ... and it was provisional */
} follow_final;

/* Free what f holds (its orders, its detected anomalies). */
void follow_final_free(follow_final *f);

/* want[level]: check that level; vo[level]: the version order of h read
 * off that level's incremental model (vo of a level not wanted is not
 * read).  1: every wanted level's order is accepted at its level and rep
 * (report_init'ed on h) got a PASS line per wanted level; 0: rep
 * untouched, why says which check refused. */
int online_confirm_pass(const history *h, const int want[2], const version_order vo[2], report *rep, char *why,
                        size_t whylen);

/* The final verdict of a followed input from f's orders (f->ready; else
 * 0): h is the whole input as the batch loader read it.  The orders are
 * mapped onto h's keys and transactions by external id, then
 * online_confirm_pass.  Frees f's orders and clears f->ready whatever the
 * answer. */
int online_final_report(const history *h, follow_final *f, int want_si, int want_ser, report *rep, char *why,
                        size_t whylen);

#endif
