/* json_out.h — writing JSON text: the one string escaper every JSON
 * output of the checker uses (reports, anomalies, load reports).
 *
 * A string is written quoted; '"' and '\\' get a backslash, every control
 * character below 0x20 becomes \u00XX (none is dropped), all other bytes
 * (UTF-8 included) are copied as they are.  NULL is written as "". */
#ifndef ISOCHECK_JSON_OUT_H
#define ISOCHECK_JSON_OUT_H

#include <stdio.h>

void json_write_string(FILE *out, const char *s);

#endif
