/* log_dir.h — the *.log files of a directory of per-session logs (Cobra's
 * binary logs, Viper's JSON lines), in natural order (T2.log before
 * T10.log), as full paths. */
#ifndef ISOCHECK_LOG_DIR_H
#define ISOCHECK_LOG_DIR_H

#include <stddef.h>

#include "error.h"

/* The paths of dir's *.log files, naturally sorted, in a NULL-terminated
 * array (free with log_dir_free); *n their count.  NULL with err set when
 * the directory cannot be opened or has none (what names the logs
 * expected: "Cobra logs", ...). */
char **log_dir_list(const char *dir, const char *what, size_t *n, ic_error *err);
void log_dir_free(char **paths);
/* Whether dir holds a *.log file. */
int log_dir_has_logs(const char *dir);

#endif
